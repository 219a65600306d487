package production

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// maxBundle bounds how much of the main bundle is read for literals.
const maxBundle = 16 << 20

// appFiles reads files of the app: from app.asar or from a resources/app
// folder.
type appFiles struct {
	archive *Archive
	dir     string
}

func (a appFiles) read(rel string, limit int64) ([]byte, bool, error) {
	if a.archive != nil {
		e := a.archive.Find(rel)
		for hops := 0; e != nil && e.Link != "" && hops < 8; hops++ {
			e = a.archive.Find(path.Join(path.Dir(e.Path), e.Link))
		}
		if e == nil {
			return nil, false, os.ErrNotExist
		}
		return a.archive.ReadEntry(e, limit)
	}
	if a.dir == "" {
		return nil, false, os.ErrNotExist
	}
	f, err := os.Open(filepath.Join(a.dir, filepath.FromSlash(path.Clean("/"+rel))))
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b := make([]byte, 0, 4096)
	buf := bytes.NewBuffer(b)
	n, err := buf.ReadFrom(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, err
	}
	out := buf.Bytes()
	if n > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// appPackage is the part of the app's package.json this package reads.
type appPackage struct {
	Name            string            `json:"name"`
	Version         string            `json:"version"`
	Main            string            `json:"main"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

// Literal is one literal webPreferences setting found in the bundle.
type Literal struct {
	Setting string `json:"setting"`
	Value   bool   `json:"value"`
	Line    int    `json:"line"`
	Text    string `json:"text"` // the matched source, at most 80 bytes
}

// WebPreferences is what the main bundle sets literally.
type WebPreferences struct {
	File      string    `json:"file"`
	Bytes     int       `json:"bytes_read"`
	Truncated bool      `json:"truncated,omitempty"`
	Literals  []Literal `json:"literals"`
	// Risky names literals that weaken the renderer: nodeIntegration or
	// nodeIntegrationInSubFrames true, contextIsolation, sandbox or
	// webSecurity false, allowRunningInsecureContent true.
	Risky []Literal `json:"risky"`
}

// literalRE matches `setting: true|false|!0|!1` as written or minified,
// with the key bare or quoted.
var literalRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["']?\b(nodeIntegrationInSubFrames|nodeIntegrationInWorker|nodeIntegration|contextIsolation|sandbox|webSecurity|allowRunningInsecureContent)["']?\s*:\s*(true|false|!0|!1)`)
}) // compiled on first use, not at start

// riskyWhen is the value of each setting that weakens the renderer.
var riskyWhen = map[string]bool{
	"nodeIntegration":             true,
	"nodeIntegrationInSubFrames":  true,
	"nodeIntegrationInWorker":     true,
	"contextIsolation":            false,
	"sandbox":                     false,
	"webSecurity":                 false,
	"allowRunningInsecureContent": true,
}

func scanWebPreferences(file string, src []byte, truncated bool) *WebPreferences {
	wp := &WebPreferences{File: file, Bytes: len(src), Truncated: truncated, Literals: []Literal{}, Risky: []Literal{}}
	const maxEach = 50
	for _, m := range literalRE().FindAllSubmatchIndex(src, -1) {
		if len(wp.Literals) >= maxEach {
			break
		}
		setting := string(src[m[2]:m[3]])
		v := string(src[m[4]:m[5]])
		val := v == "true" || v == "!0"
		text := string(src[m[0]:m[1]])
		if len(text) > 80 {
			text = text[:80]
		}
		lit := Literal{Setting: setting, Value: val, Line: 1 + bytes.Count(src[:m[0]], []byte{'\n'}), Text: text}
		wp.Literals = append(wp.Literals, lit)
		if riskyWhen[setting] == val {
			wp.Risky = append(wp.Risky, lit)
		}
	}
	return wp
}

// mainScript names the app's main entry from package.json (default
// index.js).
func mainScript(pkg *appPackage) string {
	m := strings.TrimSpace(pkg.Main)
	if m == "" {
		return "index.js"
	}
	m = strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(m)), "/")
	if path.Ext(m) == "" {
		m += ".js"
	}
	return m
}

func readPackage(files appFiles) (*appPackage, error) {
	b, _, err := files.read("package.json", 4<<20)
	if err != nil {
		return nil, err
	}
	var pkg appPackage
	if err := json.Unmarshal(b, &pkg); err != nil {
		return nil, err
	}
	return &pkg, nil
}
