package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

var binOnce struct {
	sync.Once
	path string
	err  error
}

// binary builds the command once per test run.
func binary(tb testing.TB) string {
	tb.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "understudy-bin-")
		if err != nil {
			binOnce.err = err
			return
		}
		binOnce.path = filepath.Join(dir, "understudy")
		out, err := exec.Command("go", "build", "-o", binOnce.path, ".").CombinedOutput()
		if err != nil {
			binOnce.err = err
			tb.Log(string(out))
		}
	})
	if binOnce.err != nil {
		tb.Fatal(binOnce.err)
	}
	return binOnce.path
}

// proc is the built binary serving MCP on pipes; every stdout byte is kept.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout bytes.Buffer
	mu     sync.Mutex
	cs     *mcp.ClientSession
	stderr bytes.Buffer
}

type teeReader struct {
	r io.Reader
	p *proc
}

func (t teeReader) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	t.p.mu.Lock()
	t.p.stdout.Write(b[:n])
	t.p.mu.Unlock()
	return n, err
}

func (t teeReader) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func startBinary(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(binary(t), args...)}
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "0"}, nil)
	p.cs, err = client.Connect(t.Context(), &mcp.IOTransport{Reader: teeReader{out, p}, Writer: nopWriteCloser{p.stdin}}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, p.stderr.String())
	}
	return p
}

func (p *proc) call(t *testing.T, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := p.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var m map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &m)
	if m["ok"] != true {
		t.Fatalf("%s failed: %v", name, m)
	}
	return m
}

// onlyJSONRPC fails unless every stdout line is a JSON-RPC 2.0 message.
func (p *proc) onlyJSONRPC(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	sc := bufio.NewScanner(bytes.NewReader(p.stdout.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" {
			t.Fatalf("stdout line %d is not JSON-RPC: %q", n, line)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no JSON-RPC on stdout")
	}
}

func launchArgs(t *testing.T) (map[string]any, *fixture.Server) {
	chrome := chromiumtest.Require(t)
	app, err := fixture.Serve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	return map[string]any{"executablePath": chrome, "args": []string{
		"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/index.html")}}, app
}

func TestStdioLaunchWindowsNavigateStop(t *testing.T) {
	args, app := launchArgs(t)
	p := startBinary(t, "--log-level", "debug")
	r := p.call(t, "electron_launch", args)
	pid := int(r["pid"].(float64))
	w := p.call(t, "electron_windows_list", nil)
	if len(w["windows"].([]any)) != 1 {
		t.Fatalf("windows: %v", w)
	}
	n := p.call(t, "electron_navigate", map[string]any{"url": app.URL("a.test", "/second.html")})
	if n["title"] != "Second" {
		t.Fatalf("navigate: %v", n)
	}
	p.call(t, "electron_stop", nil)
	waitGroupGone(t, pid)
	_ = p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit when stdin closed")
	}
	p.onlyJSONRPC(t)
}

func TestServerExitKillsLaunchedApp(t *testing.T) {
	for _, how := range []string{"stdin-closed", "SIGTERM", "SIGINT"} {
		t.Run(how, func(t *testing.T) {
			args, _ := launchArgs(t)
			p := startBinary(t)
			r := p.call(t, "electron_launch", args)
			pid := int(r["pid"].(float64))
			switch how {
			case "stdin-closed":
				_ = p.stdin.Close()
			case "SIGTERM":
				_ = p.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				_ = p.cmd.Process.Signal(syscall.SIGINT)
			}
			done := make(chan error, 1)
			go func() { done <- p.cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				t.Fatal("server did not exit")
			}
			waitGroupGone(t, pid)
		})
	}
}

func TestServerCrashKillsLaunchedApp(t *testing.T) {
	args, _ := launchArgs(t)
	p := startBinary(t)
	r := p.call(t, "electron_launch", args)
	pid := int(r["pid"].(float64))
	_ = p.cmd.Process.Kill() // our own crash: Pdeathsig takes the app down
	_ = p.cmd.Wait()
	waitGroupGone(t, pid)
}

func TestCLI(t *testing.T) {
	bin := binary(t)
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "understudy ") {
		t.Fatalf("--version: %v %q", err, out)
	}
	out, _ = exec.Command(bin, "--help").CombinedOutput()
	for _, want := range []string{"--allow-eval", "--app-root", "--operation-timeout-ms", "--http", "demo", "doctor", "relay"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if err := exec.Command(bin, "--allow-eval=sideways").Run(); err == nil {
		t.Error("a bad --allow-eval value was accepted")
	}
	if err := exec.Command(bin, "--http", "0.0.0.0:0").Run(); err == nil {
		t.Error("a non-loopback --http address was accepted")
	}
	if err := exec.Command(bin, "bogus").Run(); err == nil {
		t.Error("an unknown command was accepted")
	}
	out, _ = exec.Command(bin, "doctor", "--json").Output()
	var rep struct {
		Checks []struct{ Name string } `json:"checks"`
	}
	if err := json.Unmarshal(out, &rep); err != nil || len(rep.Checks) < 3 {
		t.Fatalf("doctor --json: %v %s", err, out)
	}
}

func TestEvalToolsAbsentUnlessAllowed(t *testing.T) {
	for _, c := range []struct {
		flags []string
		want  map[string]bool
	}{
		{nil, map[string]bool{"electron_eval_renderer": false, "electron_eval_main": false}},
		{[]string{"--allow-eval=renderer"}, map[string]bool{"electron_eval_renderer": true, "electron_eval_main": false}},
		{[]string{"--allow-eval"}, map[string]bool{"electron_eval_renderer": true}},
	} {
		p := startBinary(t, c.flags...)
		res, err := p.cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, tl := range res.Tools {
			have[tl.Name] = true
		}
		for name, want := range c.want {
			if have[name] != want {
				t.Errorf("flags %v: tool %s present=%v, want %v", c.flags, name, have[name], want)
			}
		}
	}
}

func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		if len(browser.LiveGroupMembers(pgid)) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("process group %d still has live processes", pgid)
}

// startRelayCmd starts `understudy relay ARGS…`, reads what it prints up
// to its http: line, and returns the command (killed at the end of the
// test unless it exited), the relay's HTTP URL and its stderr.
func startRelayCmd(t *testing.T, args ...string) (*exec.Cmd, string, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"relay"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := new(bytes.Buffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		t.Log(sc.Text())
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "http:" {
			return cmd, f[1], stderr
		}
	}
	t.Fatalf("no relay URL printed; stderr: %s", stderr.String())
	return nil, "", nil
}

func TestRelayCommand(t *testing.T) {
	b := chromiumtest.Start(t.Context(), t)
	cmd, httpURL, _ := startRelayCmd(t, "--attach", b.HTTPURL)
	resp, err := http.Get(httpURL + "/json/version")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&v)
	resp.Body.Close()
	if !strings.HasPrefix(v.WS, "ws://127.0.0.1:") || strings.Contains(v.WS, strconv.Itoa(b.Port)) {
		t.Fatalf("webSocketDebuggerUrl %q does not point at the relay", v.WS)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("relay did not exit on SIGTERM")
	}
	if len(browser.LiveGroupMembers(b.PID)) == 0 {
		t.Fatal("the relay's exit ended the attached browser")
	}
	for _, bad := range [][]string{{"relay"}, {"relay", "--attach", "http://10.1.2.3:9222"}, {"relay", "--attach", b.HTTPURL, "--addr", "0.0.0.0:0"}} {
		if err := exec.Command(binary(t), bad...).Run(); err == nil {
			t.Errorf("%v was accepted", bad)
		}
	}
}

func TestHTTPTransport(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(binary(t), "--http", addr, "--token", "tok")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	url := "http://" + addr + "/mcp"
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no listener: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: withBearer{"tok"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "electron_status"})
	if err != nil || res.IsError {
		t.Fatalf("status over HTTP: %v %v", err, res)
	}
	// Only /mcp, and only with the token.
	for _, c := range []struct {
		path, auth string
		want       int
	}{{"/", "Bearer tok", 404}, {"/mcp/x", "Bearer tok", 404}, {"/mcp", "", 401}, {"/mcp", "Bearer nope", 401}} {
		req, _ := http.NewRequest("POST", "http://"+addr+c.path, strings.NewReader(`{}`))
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("POST %s (%q): %d, want %d", c.path, c.auth, resp.StatusCode, c.want)
		}
	}
	for _, c := range []struct{ host, origin string }{{"evil.example", ""}, {addr, "http://evil.example"}} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{}`))
		req.Host = c.host
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("host %q origin %q: status %d, want 403", c.host, c.origin, resp.StatusCode)
		}
	}
}

// withBearer adds a token to every request.
type withBearer struct{ token string }

func (b withBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
