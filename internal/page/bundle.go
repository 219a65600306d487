package page

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"strings"
	"sync"
)

//go:embed js/*.js
var jsFiles embed.FS

// jsOrder is the order in which the walker's files are concatenated:
// prelude.js opens the closure that install.js closes.
func jsOrder() []string {
	return []string{
		"prelude.js", "dom.js", "roles.js", "name.js", "state.js", "walk.js",
		"registry.js", "render.js", "diff.js", "ops.js", "editors.js", "actions.js", "wait.js", "seek.js", "install.js",
	}
}

// keyPlaceholder is replaced in prelude.js with the bundle's key.
const keyPlaceholder = "__UNDERSTUDY_KEY__"

// bundle is the walker as one script, and the Symbol.for key it installs
// itself under. The key names the build (a hash of the sources), so two
// different builds never share a page's registry.
type bundle struct {
	script string
	key    string
}

// theBundle is the walker of this build, assembled once per process: it
// is the same bytes for every session (a constant computed on first use;
// building it for each new session cost every attach and launch about
// 1.5 MB of allocations).
var theBundle = sync.OnceValue(loadBundle)

func loadBundle() bundle {
	var b strings.Builder
	for _, name := range jsOrder() {
		src, err := jsFiles.ReadFile("js/" + name)
		if err != nil {
			panic("page: missing embedded " + name) // a build error, caught by every test
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	sum := sha256.Sum256([]byte(b.String()))
	key := "understudy.page/" + hex.EncodeToString(sum[:6])
	return bundle{script: strings.ReplaceAll(b.String(), keyPlaceholder, key), key: key}
}
