package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// adapter says how one MCP server does each measured step: the tool it calls,
// the arguments, and how to read a ref and the snapshot body out of its text.
// Every server gets the same page in the same browser; only the calls differ.
type adapter struct {
	name    string   // column title
	version string   // package version, for the report
	argv    []string // the server's command line
	env     []string // extra environment

	// setup selects the shared page; it runs once after connecting.
	setup func(s *server) error

	snapshot func(s *server) call             // the full text snapshot
	read     func(s *server) call             // read the text of #status
	click    func(s *server, ref string) call // click an element by ref

	// body is the snapshot itself, without the server's framing.
	body func(text string) string
	// editRef finds the ref of row n's Edit button in a snapshot.
	editRef func(text string, row int) (string, error)
	// checkboxRef finds the ref of row n's checkbox in a snapshot.
	checkboxRef func(text string, row int) (string, error)

	// The descriptions of the calls, for the report.
	snapshotDesc, readDesc, clickDesc, changeDesc string
}

// call is one MCP tool call.
type call struct {
	tool string
	args map[string]any
}

// statusJS reads the element the read benchmark reads.
const statusJS = "() => document.querySelector('#status').textContent"

func understudyAdapter(bin string, cdpPort int, targetID string) *adapter {
	a := &adapter{
		name:    "understudy",
		version: "this tree",
		argv:    []string{bin},
		setup: func(s *server) error {
			if _, err := s.mustCall(call{"electron_attach", map[string]any{"port": cdpPort}}); err != nil {
				return err
			}
			_, err := s.mustCall(call{"electron_switch_window", map[string]any{"targetId": targetID}})
			return err
		},
		snapshot: func(*server) call {
			return call{"electron_snapshot", map[string]any{"format": "text"}}
		},
		read: func(*server) call {
			return call{"electron_get_text", map[string]any{"selector": "#status"}}
		},
		click: func(_ *server, ref string) call {
			n, _ := strconv.Atoi(ref)
			return call{"electron_click", map[string]any{"ref": n}}
		},
		body: func(text string) string { return envelopeField(text, "snapshot_text") },
		editRef: func(text string, row int) (string, error) {
			return refAfter(envelopeField(text, "snapshot_text"), row, `\[(\d+)\] button "Edit"`)
		},
		checkboxRef: func(text string, row int) (string, error) {
			return refMatch(envelopeField(text, "snapshot_text"), `\[(\d+)\] checkbox "Select Item `+strconv.Itoa(row)+`"`)
		},
		snapshotDesc: "`electron_snapshot {format:'text'}`",
		readDesc:     "`electron_get_text {selector:'#status'}`",
		clickDesc:    "`electron_click {ref}` (ref from the text snapshot)",
		changeDesc:   "`electron_snapshot {format:'text', since:'last'}`",
	}
	return a
}

// playwrightAdapter runs @playwright/mcp on the shared browser. With settle0
// it runs with --timeout-settle 0: by default it waits 500 ms after every
// call for triggered work to settle.
func playwrightAdapter(benchDir string, cdpPort int, pageURL, outDir string, settle0 bool) *adapter {
	pkg := filepath.Join(benchDir, "node_modules", "@playwright", "mcp")
	name := "@playwright/mcp"
	argv := []string{"node", filepath.Join(pkg, "cli.js"),
		"--cdp-endpoint", "http://127.0.0.1:" + strconv.Itoa(cdpPort),
		"--output-dir", outDir}
	if settle0 {
		name += " (settle 0)"
		argv = append(argv, "--timeout-settle", "0")
	}
	return &adapter{
		name:    name,
		version: packageVersion(pkg),
		argv:    argv,
		setup: func(s *server) error {
			text, err := s.mustCall(call{"browser_tabs", map[string]any{"action": "list"}})
			if err != nil {
				return err
			}
			idx, err := tabIndex(text, `(?m)^- (\d+): .*\]\(`+regexp.QuoteMeta(pageURL)+`\)`)
			if err != nil {
				return err
			}
			_, err = s.mustCall(call{"browser_tabs", map[string]any{"action": "select", "index": idx}})
			return err
		},
		snapshot: func(*server) call { return call{"browser_snapshot", map[string]any{}} },
		read: func(*server) call {
			return call{"browser_evaluate", map[string]any{"function": statusJS}}
		},
		click: func(_ *server, ref string) call {
			return call{"browser_click", map[string]any{"target": ref}}
		},
		body: func(text string) string { return between(text, "```yaml\n", "\n```") },
		editRef: func(text string, row int) (string, error) {
			return refAfter(text, row, `button "Edit"[^\n]*?\[ref=(\w+)\]`)
		},
		checkboxRef: func(text string, row int) (string, error) {
			return refMatch(text, `checkbox "Select Item `+strconv.Itoa(row)+`"[^\n]*?\[ref=(\w+)\]`)
		},
		snapshotDesc: "`browser_snapshot {}`",
		readDesc:     "`browser_evaluate {function:\"() => document.querySelector('#status').textContent\"}`",
		clickDesc:    "`browser_click {target: ref}` (ref from `browser_snapshot`)",
		changeDesc:   "no diff tool (`browser_click` saves a full snapshot to a file and links it): the next `browser_snapshot` (full)",
	}
}

func devtoolsAdapter(benchDir string, cdpPort int, pageURL string) *adapter {
	pkg := filepath.Join(benchDir, "node_modules", "chrome-devtools-mcp")
	return &adapter{
		name:    "chrome-devtools-mcp",
		version: packageVersion(pkg),
		argv: []string{"node", filepath.Join(pkg, "build", "src", "bin", "chrome-devtools-mcp.js"),
			"--browserUrl", "http://127.0.0.1:" + strconv.Itoa(cdpPort),
			"--no-usage-statistics", "--no-performance-crux"},
		env: []string{"CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS=1"},
		setup: func(s *server) error {
			text, err := s.mustCall(call{"list_pages", map[string]any{}})
			if err != nil {
				return err
			}
			id, err := tabIndex(text, `(?m)^(\d+): .*\(`+regexp.QuoteMeta(pageURL)+`\)`)
			if err != nil {
				return err
			}
			s.pageID = id
			_, err = s.mustCall(call{"select_page", map[string]any{"pageId": id}})
			return err
		},
		snapshot: func(s *server) call {
			return call{"take_snapshot", map[string]any{"pageId": s.pageID}}
		},
		read: func(s *server) call {
			return call{"evaluate_script", map[string]any{"pageId": s.pageID, "function": statusJS, "waitForStableDom": false}}
		},
		click: func(s *server, ref string) call {
			return call{"click", map[string]any{"pageId": s.pageID, "uid": ref}}
		},
		body: func(text string) string {
			_, after, _ := strings.Cut(text, "## Latest page snapshot\n")
			return after
		},
		editRef: func(text string, row int) (string, error) {
			return refAfter(text, row, `uid=(\S+) button "Edit"`)
		},
		checkboxRef: func(text string, row int) (string, error) {
			return refMatch(text, `uid=(\S+) checkbox "Select Item `+strconv.Itoa(row)+`"`)
		},
		snapshotDesc: "`take_snapshot {pageId}`",
		readDesc:     "`evaluate_script {pageId, function:\"() => document.querySelector('#status').textContent\", waitForStableDom:false}`",
		clickDesc:    "`click {pageId, uid}` (uid from `take_snapshot`)",
		changeDesc:   "no diff tool: the next `take_snapshot` (full)",
	}
}

// envelopeField returns a string field of understudy's JSON envelope, or
// text itself when it is not an envelope.
func envelopeField(text, field string) string {
	var m map[string]any
	if json.Unmarshal([]byte(text), &m) != nil {
		// A text body (a text snapshot) comes as plain text, then the
		// envelope without it (the client joins the blocks with "\n").
		if i := strings.LastIndex(text, "\n{"); i >= 0 && json.Valid([]byte(text[i+1:])) {
			return text[:i]
		}
		return text
	}
	v, _ := m[field].(string)
	return v
}

// refAfter finds the first match of re after row n's checkbox name, that is
// the Edit button of the same row.
func refAfter(text string, row int, re string) (string, error) {
	name := `"Select Item ` + strconv.Itoa(row) + `"`
	i := strings.Index(text, name)
	if i < 0 {
		return "", fmt.Errorf("row %d not in the snapshot", row)
	}
	rest := text[i+len(name):]
	if m := regexp.MustCompile(re).FindStringSubmatch(rest); m != nil {
		return m[1], nil
	}
	return "", fmt.Errorf("no Edit button after row %d in the snapshot", row)
}

func refMatch(text, re string) (string, error) {
	if m := regexp.MustCompile(re).FindStringSubmatch(text); m != nil {
		return m[1], nil
	}
	return "", fmt.Errorf("no match for %s in the snapshot", re)
}

func tabIndex(text, re string) (int, error) {
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("the page is not among the server's tabs:\n%s", text)
	}
	return strconv.Atoi(m[1])
}

func between(text, start, end string) string {
	_, after, ok := strings.Cut(text, start)
	if !ok {
		return text
	}
	body, _, _ := strings.Cut(after, end)
	return body
}

// packageVersion reads the version of an installed npm package.
func packageVersion(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "not installed"
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &p) != nil {
		return "unknown"
	}
	return p.Version
}
