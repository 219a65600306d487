package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/tool"
)

// snippet is a README code block announced by <!-- mcp-snippet: NAME … -->.
var snippet = regexp.MustCompile("(?s)<!-- mcp-snippet: ([a-z-]+)[^>]*-->\\s*```(json|sh)\\n(.*?)```")

// TestREADMESnippets: every MCP host snippet in the README parses, starts
// understudy (the binary or the npm package through npx), and passes flags
// the server accepts.
func TestREADMESnippets(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range snippet.FindAllStringSubmatch(string(b), -1) {
		name, lang, body := m[1], m[2], m[3]
		seen[name] = true
		var argv []string
		switch lang {
		case "json":
			var cfg struct {
				MCPServers map[string]hostEntry `json:"mcpServers"`
				Servers    map[string]hostEntry `json:"servers"`
			}
			if err := json.Unmarshal([]byte(body), &cfg); err != nil {
				t.Errorf("%s: not JSON: %v", name, err)
				continue
			}
			e, ok := cfg.MCPServers["understudy"]
			if !ok {
				e, ok = cfg.Servers["understudy"]
				if ok && e.Type != "stdio" {
					t.Errorf("%s: type %q, want stdio", name, e.Type)
				}
			}
			if !ok {
				t.Errorf("%s: no understudy server in %s", name, body)
				continue
			}
			argv = append([]string{e.Command}, e.Args...)
		case "sh":
			argv = strings.Fields(body)
			switch {
			case len(argv) > 4 && argv[0] == "claude" && argv[1] == "mcp" && argv[2] == "add":
				i := indexOf(argv, "--")
				if i < 0 {
					t.Errorf("%s: no -- before the command", name)
					continue
				}
				argv = argv[i+1:]
			case len(argv) > 3 && argv[0] == "npx" && argv[1] == "-y" && argv[2] == "@modelcontextprotocol/inspector":
				// Inspector's options, then -- and the server's command
				// line (Inspector has a --config of its own).
				i := indexOf(argv, "--")
				if i < 0 {
					t.Errorf("%s: no -- before understudy's command line (Inspector would take its flags)", name)
					continue
				}
				argv = argv[i+1:]
			default:
				t.Errorf("%s: unknown command line %q", name, body)
				continue
			}
		}
		flags, ok := serverFlags(argv)
		if !ok {
			t.Errorf("%s: does not start understudy: %q", name, argv)
			continue
		}
		if _, code, ok := parseMCPFlags(flags, io.Discard, io.Discard, noEnv); !ok && code != 0 {
			// The example's folder need not exist; every other flag must parse.
			if _, code, ok := parseMCPFlags(withoutAppRoot(flags), io.Discard, io.Discard, noEnv); !ok {
				t.Errorf("%s: the server refuses %q (exit %d)", name, flags, code)
			}
		}
	}
	for _, want := range []string{"claude-code", "cursor", "vscode", "windsurf", "inspector"} {
		if !seen[want] {
			t.Errorf("README has no %s snippet", want)
		}
	}
}

type hostEntry struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// serverFlags returns the server's flags from a command line that starts
// it: understudy FLAGS… or npx -y @understudy-dev/understudy FLAGS….
func serverFlags(argv []string) ([]string, bool) {
	switch {
	case len(argv) > 0 && filepath.Base(argv[0]) == "understudy":
		return argv[1:], true
	case len(argv) > 2 && argv[0] == "npx" && argv[1] == "-y" && argv[2] == "@understudy-dev/understudy":
		return argv[3:], true
	}
	return nil, false
}

func withoutAppRoot(flags []string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		if flags[i] == "--app-root" {
			i++
			continue
		}
		out = append(out, flags[i])
	}
	return out
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// offered is how many tools a server with these settings offers.
func offered(cfg tool.Config) int {
	s := tool.New(cfg)
	defer s.Close()
	return len(s.Offered())
}

// TestREADMEFacts (issue 29) keeps what a newcomer copies from the docs
// true: the tool counts in README's flag table, ADR-022 and
// docs/benchmarks.md are the binary's; every section README sends the
// reader to ("Files" below) is a heading; docs/relay.md's first relay
// command listens on the port its client snippets connect to; README still
// opens with make demo and make test.
func TestREADMEFacts(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", p))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(string(b)), " ") // line breaks do not matter
	}
	readme := read("README.md")
	essential := offered(tool.Config{ToolProfile: "essential"})
	full := offered(tool.Config{ToolProfile: "full"})
	fullEval := offered(tool.Config{ToolProfile: "full", AllowEvalMain: true, AllowEvalRenderer: true})
	for _, c := range []struct{ file, want string }{
		{"README.md", fmt.Sprintf("`essential` is %d tools", essential)},
		{"README.md", fmt.Sprintf("default `full`: %d tools, %d with `--allow-eval`", full, fullEval)},
		{"docs/adr/022-profiles-and-groups.md", fmt.Sprintf("Now (issue 29): essential %d tools, full %d tools (%d with `--allow-eval`)", essential, full, fullEval)},
		{"docs/benchmarks.md", fmt.Sprintf("the full profile offers %d now, %d with `--allow-eval`", full, fullEval)},
	} {
		if !strings.Contains(read(c.file), c.want) {
			t.Errorf("%s does not say %q (the binary's counts)", c.file, c.want)
		}
	}

	// Sections the README names must exist (and the usage's "README: Files").
	headings := map[string]bool{}
	raw, _ := os.ReadFile(filepath.Join("..", "..", "README.md"))
	for _, m := range regexp.MustCompile(`(?m)^#{2,4} (.+)$`).FindAllStringSubmatch(string(raw), -1) {
		headings[strings.TrimSpace(m[1])] = true
	}
	refs := regexp.MustCompile(`"([A-Z][A-Za-z ]+)" (?:below|above)|see "([A-Z][A-Za-z ]+)"`).FindAllStringSubmatch(readme, -1)
	refs = append(refs, regexp.MustCompile(`README: "([A-Za-z ]+)"`).FindAllStringSubmatch(usage, -1)...)
	if len(refs) == 0 {
		t.Error("found no section references to check")
	}
	for _, m := range refs {
		name := m[1]
		if name == "" && len(m) > 2 {
			name = m[2]
		}
		if !headings[name] {
			t.Errorf("README sends the reader to %q, which is no heading of it", name)
		}
	}

	// docs/relay.md: the first command starts the relay on the port every
	// client snippet connects to.
	relayDoc := string(must(os.ReadFile(filepath.Join("..", "..", "docs", "relay.md"))))
	first := regexp.MustCompile(`(?m)^understudy relay --attach .*$`).FindString(relayDoc)
	pm := regexp.MustCompile(`--port (\d+)`).FindStringSubmatch(first)
	if pm == nil {
		t.Fatalf("docs/relay.md's first relay command %q has no --port", first)
	}
	clients := regexp.MustCompile("(?s)```(?:js|ts|go|python)\\n(.*?)```").FindAllStringSubmatch(relayDoc, -1)
	if len(clients) < 3 {
		t.Fatalf("docs/relay.md: found %d client snippets", len(clients))
	}
	for _, c := range clients {
		for _, p := range regexp.MustCompile(`127\.0\.0\.1:(\d+)`).FindAllStringSubmatch(c[1], -1) {
			if p[1] != pm[1] && p[1] != "9222" {
				t.Errorf("docs/relay.md: a client snippet connects to :%s, the relay above listens on --port %s:\n%s", p[1], pm[1], c[1])
			}
		}
		if strings.Contains(c[1], "connectOverCDP") || strings.Contains(c[1], "browserURL") {
			if !strings.Contains(c[1], "127.0.0.1:"+pm[1]) {
				t.Errorf("docs/relay.md: a client snippet does not connect to the relay's port %s:\n%s", pm[1], c[1])
			}
		}
	}

	// README opens with the two commands.
	cmds := regexp.MustCompile("(?s)```sh\\n(.*?)```").FindStringSubmatch(string(raw))
	lines := strings.Split(strings.TrimSpace(cmds[1]), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "make demo") || !strings.HasPrefix(lines[1], "make test") {
		t.Errorf("README's first commands are %q, want make demo and make test", lines)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
