package tool

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// stagewrightName is a tool name as electron-stagewright's reference writes
// it: `group_name` in backticks, with one of its tool prefixes.
var stagewrightName = regexp.MustCompile("`((?:electron|storage|clock|ipc|native|network|production|trace|visual|a11y)_[a-z0-9_]+)`")

// notStagewrightTools are names the reference mentions that are not tools
// of it: ADR-026 says there is no electron_macro.
var notStagewrightTools = map[string]bool{"electron_macro": true}

// TestStagewrightToolNames: a stagewright user switching over finds every
// tool name of its reference here (eval allowed, every group offered). The
// names are read from testdata/stagewright-tool-names.txt (a copy) and,
// when CI's read-only ../shared folder sits beside the clone, from
// ../shared/reference/stagewright/*.md too, so a name added there fails
// here even before the copy is refreshed.
func TestStagewrightToolNames(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	have := map[string]bool{}
	for _, n := range s.Names() {
		have[n] = true
	}
	f, err := os.Open(filepath.Join("testdata", "stagewright-tool-names.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	copied := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			copied[line] = true
		}
	}
	if len(copied) < 100 {
		t.Fatalf("the copied list names only %d tools", len(copied))
	}
	missing := func(names map[string]bool, from string) {
		var out []string
		for n := range names {
			if !have[n] {
				out = append(out, n)
			}
		}
		sort.Strings(out)
		if len(out) > 0 {
			t.Errorf("tools of stagewright's reference (%s) that understudy lacks: %v", from, out)
		}
	}
	missing(copied, "testdata/stagewright-tool-names.txt")

	dir := filepath.Join("..", "..", "..", "shared", "reference", "stagewright")
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(files) == 0 {
		t.Logf("%s is not here: checked the copied list only", dir)
		return
	}
	live := map[string]bool{}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range stagewrightName.FindAllStringSubmatch(string(b), -1) {
			if !notStagewrightTools[m[1]] {
				live[m[1]] = true
			}
		}
	}
	missing(live, dir)
	for n := range live {
		if !copied[n] {
			t.Logf("%s names %s, which testdata/stagewright-tool-names.txt does not: refresh the copy", dir, n)
		}
	}
}
