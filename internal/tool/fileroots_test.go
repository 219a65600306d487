//lint:file-ignore SA1019 MCP client roots are what issue 12 asks files to be checked against; deprecated in protocol 2026-07-28 (SEP-2577) but served through the deprecation window, and older clients rely on them.

package tool

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsLayout makes an allowed folder and one outside every root, with a
// file in each.
func rootsLayout(t *testing.T) (allowed, outside, inFile, outFile string) {
	t.Helper()
	allowed, outside = t.TempDir(), t.TempDir()
	inFile, outFile = filepath.Join(allowed, "in.txt"), filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(inFile, []byte("inside"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outFile, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	return
}

func unchanged(t *testing.T, path, want string) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || string(b) != want {
		t.Fatalf("%s was changed: %q %v", path, b, err)
	}
}

// TestFileRootsEnforced drives real Chromium through the MCP dispatcher:
// screenshots, set_files, drop_file and file: navigation are refused
// outside the roots and leave no trace; inside a --file-root they work.
func TestFileRootsEnforced(t *testing.T) {
	allowed, outside, inFile, outFile := rootsLayout(t)
	art := filepath.Join(t.TempDir(), "artifacts")
	e := newEnv(t, Config{AllowEvalRenderer: true, FileRoots: []string{allowed}, ArtifactsDir: art})
	e.launch("/actions.html")

	// Screenshots: outside the roots, over a file the server did not write,
	// through a link that leads outside.
	e.fails("electron_screenshot", map[string]any{"path": outFile}, "PATH_NOT_ALLOWED")
	e.fails("electron_screenshot", map[string]any{"path": outFile, "overwrite": true}, "PATH_NOT_ALLOWED")
	unchanged(t, outFile, "keep me")
	e.fails("electron_screenshot", map[string]any{"path": filepath.Join(outside, "new.png")}, "PATH_NOT_ALLOWED")
	e.fails("electron_screenshot", map[string]any{"dir": outside}, "PATH_NOT_ALLOWED")
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Fatalf("files appeared outside the roots: %v", ents)
	}
	link := filepath.Join(allowed, "out-link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	e.fails("electron_screenshot", map[string]any{"path": filepath.Join(link, "secret.txt"), "overwrite": true}, "PATH_NOT_ALLOWED")
	unchanged(t, outFile, "keep me")
	m := e.fails("electron_screenshot", map[string]any{"path": inFile}, "FILE_EXISTS")
	if details(m)["field"] != "path" {
		t.Fatalf("FILE_EXISTS names no field: %v", m)
	}
	unchanged(t, inFile, "inside")
	r := e.ok("electron_screenshot", map[string]any{"path": inFile, "overwrite": true})
	if b, _ := os.ReadFile(inFile); !strings.HasPrefix(string(b), "\x89PNG") || r["path"] != inFile {
		t.Fatalf("overwrite:true did not write a PNG: %v", r)
	}
	// The server's own file may be written again; a relative path lands in
	// the artifacts folder.
	own := filepath.Join(allowed, "own.png")
	e.ok("electron_screenshot", map[string]any{"path": own})
	e.ok("electron_screenshot", map[string]any{"path": own})
	r = e.ok("electron_screenshot", map[string]any{"path": "shots.png"})
	if r["path"] != filepath.Join(art, "shots.png") {
		t.Fatalf("relative path: %v", r["path"])
	}
	if r = e.ok("electron_screenshot", map[string]any{}); filepath.Dir(r["path"].(string)) != art {
		t.Fatalf("default folder: %v", r["path"])
	}
	e.fails("electron_screenshot", map[string]any{"path": "../escape.png"}, "PATH_NOT_ALLOWED")

	// set_files and drop_file: nothing outside the roots reaches the page.
	for _, p := range []string{outFile, "/etc/passwd", filepath.Join(link, "secret.txt")} {
		e.fails("electron_set_files", map[string]any{"selector": "#file", "paths": []string{p}}, "PATH_NOT_ALLOWED")
		e.fails("electron_drop_file", map[string]any{"selector": "#dropzone", "paths": []string{p}}, "PATH_NOT_ALLOWED")
	}
	if n := num(e.eval("document.getElementById('file').files.length")); n != 0 {
		t.Fatalf("the input holds %d files after refusals", n)
	}
	if f := e.recorded("x.type === 'files' || x.type === 'drop'"); len(f) != 0 {
		t.Fatalf("the page saw files: %v", f)
	}
	e.fails("electron_set_files", map[string]any{"selector": "#file", "paths": []string{"/proc/self/mem"}}, "BAD_ARGUMENT")
	e.ok("electron_set_files", map[string]any{"selector": "#file", "paths": []string{filepath.Join(allowed, "own.png")}})
	if v := e.evalString("document.getElementById('file').files[0].name"); v != "own.png" {
		t.Fatalf("file inside a root: %q", v)
	}

	// file: URLs outside the roots are refused before anything is sent.
	before := e.evalString("location.href")
	for _, u := range []string{"file:///etc/passwd", "view-source:file:///etc/passwd", "file://" + outFile, "file://" + filepath.ToSlash(link) + "/secret.txt"} {
		e.fails("electron_navigate", map[string]any{"url": u}, "PATH_NOT_ALLOWED")
	}
	if after := e.evalString("location.href"); after != before {
		t.Fatalf("the page moved to %s", after)
	}
	page := filepath.Join(allowed, "page.html")
	if err := os.WriteFile(page, []byte("<title>local</title><p>allowed page text</p>"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("electron_navigate", map[string]any{"url": (&url.URL{Scheme: "file", Path: page}).String()})
	if txt := e.ok("electron_get_text", map[string]any{"selector": "p"}); !strings.Contains(toJSON(txt), "allowed page text") {
		t.Fatalf("get_text on the allowed file: %v", txt)
	}
}

// TestFileRootsFromClient: the MCP client's roots (roots/list) are allowed,
// and a change (notifications/roots/list_changed) is honored.
func TestFileRootsFromClient(t *testing.T) {
	allowed, clientDir, _, clientFile := rootsLayout(t)
	e := newEnv(t, Config{AllowEvalRenderer: true, FileRoots: []string{allowed}})
	e.launch("/actions.html")
	e.fails("electron_set_files", map[string]any{"selector": "#file", "paths": []string{clientFile}}, "PATH_NOT_ALLOWED")

	// Another MCP connection to the same server, from a client with roots:
	// on the current protocol (the roots come in the retry of the call) and
	// on 2025-06-18 (the server sends roots/list).
	plain := e.client
	for _, version := range []string{"", "2025-06-18"} {
		t.Run("protocol "+version, func(t *testing.T) {
			e := e.on(t)
			ctx := context.Background()
			ct, st := mcp.NewInMemoryTransports()
			ss, err := e.srv.MCP().Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			client := mcp.NewClient(&mcp.Implementation{Name: "rooted", Version: "0"}, nil)
			uri := (&url.URL{Scheme: "file", Path: clientDir}).String()
			client.AddRoots(&mcp.Root{URI: uri, Name: "project"})
			cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if version != "" && cs.InitializeResult().ProtocolVersion != version {
				t.Fatalf("negotiated %s", cs.InitializeResult().ProtocolVersion)
			}
			e.client = cs

			e.ok("electron_set_files", map[string]any{"selector": "#file", "paths": []string{clientFile}})
			if v := e.evalString("document.getElementById('file').files[0].name"); v != "secret.txt" {
				t.Fatalf("file in a client root: %q", v)
			}
			shot := filepath.Join(clientDir, "client.png")
			e.ok("electron_screenshot", map[string]any{"path": shot})
			// The other client has no such root.
			e.client = plain
			e.fails("electron_screenshot", map[string]any{"path": shot}, "PATH_NOT_ALLOWED")
			e.client = cs

			// The client drops the root: the server asks again and refuses.
			client.RemoveRoots(uri)
			deadline := time.Now().Add(10 * time.Second)
			for {
				m := e.call("electron_set_files", map[string]any{"selector": "#file", "paths": []string{clientFile}})
				if m["code"] == "PATH_NOT_ALLOWED" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the removed client root is still allowed: %v", m)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
