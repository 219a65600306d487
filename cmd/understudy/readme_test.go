package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
			case len(argv) > 2 && argv[0] == "npx" && argv[1] == "@modelcontextprotocol/inspector":
				argv = argv[2:]
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
