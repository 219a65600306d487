package relay

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/npmtest"
)

// The compatibility tests run real clients, pinned in compat/package.json
// and compat/package-lock.json, against the relay: Playwright and Puppeteer
// scripts under node, and chromedp in Go (chromedp_test.go).

const compatDir = "compat"

// compatNPM installs the pinned clients (npm ci from the lockfile).
var compatNPM = &npmtest.Folder{Dir: compatDir}

// requireNode returns the node binary after making sure the pinned npm
// packages are installed. Without node or npm the test is skipped, or
// fails with CI=true; under -short it is skipped.
func requireNode(t testing.TB) string {
	t.Helper()
	return compatNPM.Require(t)
}

// compatEnv is the environment env.mjs documents.
func compatEnv(r *Relay, srv *fixture.Server, top string, extra ...string) []string {
	return append(append(os.Environ(),
		"RELAY_HTTP="+r.HTTPURL(),
		"RELAY_WS="+r.WSURL(),
		"FIXTURE_PORT="+strconv.Itoa(srv.Port()),
		"TOP_URL="+top,
		"PUPPETEER_SKIP_DOWNLOAD=1",
	), extra...)
}

// runNodeTests runs one node --test file and fails the test with its
// output when a case fails.
func runNodeTests(t *testing.T, node, file string, env []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", "--test-concurrency=1", file)
	cmd.Dir = compatDir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", file, err, out)
	}
	summary := out
	if i := bytes.LastIndex(out, []byte("ℹ tests")); i >= 0 {
		summary = out[i:]
	}
	t.Logf("%s:\n%s", file, summary)
}

func TestPlaywright(t *testing.T) { runOnTopPage(t, "playwright.test.mjs", false) }

func TestPuppeteer(t *testing.T) { runOnTopPage(t, "puppeteer.test.mjs", false) }

// TestPlaywrightFlat and TestPuppeteerFlat run the same scripts through a
// relay whose upstream is the browser WebSocket alone (Options.Flat, as a
// Selenium Grid session's se:cdp): every target socket is a flattened
// session on a socket of its own (bridge.go).
func TestPlaywrightFlat(t *testing.T) { runOnTopPage(t, "playwright.test.mjs", true) }

func TestPuppeteerFlat(t *testing.T) { runOnTopPage(t, "puppeteer.test.mjs", true) }

// runOnTopPage runs a compat script through a relay in front of the shared
// browser (flat: on its browser socket alone), with the fixture's top page
// open.
func runOnTopPage(t *testing.T, script string, flat bool) {
	node := requireNode(t)
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	top := srv.URL("a.test", "/index.html")
	openPage(t, top)
	opts := Options{Upstream: endpointOf(b)}
	if flat {
		opts = Options{Upstream: browser.Endpoint{BrowserWSURL: b.WSURL}, Flat: true}
	}
	opts.DownloadDir = t.TempDir()
	r := startRelayWith(t, opts, nil)
	runNodeTests(t, node, script, compatEnv(r, srv, top, "TMPDIR="+clientTempInDownloads(t, r)))
}

// clientTempInDownloads is a temporary folder inside the relay's downloads
// folder: Playwright makes its downloads folder in TMPDIR, and the relay
// lets downloads go only into its own folder (docs/relay.md, Downloads).
func clientTempInDownloads(t *testing.T, r *Relay) string {
	t.Helper()
	dir := filepath.Join(r.DownloadDir(), "tmp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSetInputFilesUnderRoots: Playwright's setInputFiles and Puppeteer's
// uploadFile hand the page a file under the operator's file roots through
// the relay; /etc/passwd and a symlink under the roots to a file outside
// are refused with the relay's error naming the method and --relay-allow
// (upload.test.mjs).
func TestSetInputFilesUnderRoots(t *testing.T) {
	node := requireNode(t)
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	root, outside := t.TempDir(), t.TempDir()
	inRoot := filepath.Join(root, "upload.txt")
	if err := os.WriteFile(inRoot, []byte("under the root"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("outside"), 0o600); err != nil {
		t.Fatal(err)
	}
	linkOut := filepath.Join(root, "link.txt")
	if err := os.Symlink(secret, linkOut); err != nil {
		t.Fatal(err)
	}
	top := srv.URL("a.test", "/index.html")
	openPage(t, top)
	opts := Options{Upstream: endpointOf(b), Files: files.New(files.Config{Artifacts: filepath.Join(t.TempDir(), "artifacts"), Extra: []string{root}})}
	r := startRelayWith(t, opts, nil)
	runNodeTests(t, node, "upload.test.mjs", compatEnv(r, srv, top, "IN_ROOT="+inRoot, "LINK_OUT="+linkOut))
}

// TestTracingThroughTheRelay: Playwright's browser.startTracing and
// Puppeteer's page.tracing record and read a trace through the relay, which
// refuses only a Perfetto config or the system backend (tracing.test.mjs).
func TestTracingThroughTheRelay(t *testing.T) {
	node := requireNode(t)
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	top := srv.URL("a.test", "/index.html")
	openPage(t, top)
	r := startRelay(t, endpointOf(b))
	runNodeTests(t, node, "tracing.test.mjs", compatEnv(r, srv, top))
}

func TestWebviewGuestCompat(t *testing.T) {
	node := requireNode(t)
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	proxy, err := fixture.StartElectronProxy(ctx, b.HTTPURL, fixture.ProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	top := srv.URL("a.test", "/webview-host.html")
	openPage(t, top)
	guest := srv.URL("a.test", "/guest.html")
	openPage(t, guest)
	r := startRelay(t, browser.Endpoint{HTTPURL: proxy.HTTPURL()})
	runNodeTests(t, node, "webview.test.mjs", compatEnv(r, srv, top, "GUEST_URL="+guest))
}

func TestUpstreamCrashCompat(t *testing.T) {
	node, own, top, r := ownRelay(t, "/second.html")
	srv := fixtureSrv.get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	cmd := exec.CommandContext(ctx, node, "crash.mjs")
	cmd.Dir = compatDir
	cmd.Env = compatEnv(r, srv, top)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == "READY" {
			if err := own.Stop(); err != nil {
				t.Logf("stop: %v", err)
			}
		}
	}
	err = cmd.Wait()
	out := strings.Join(lines, "\n")
	if err != nil || !strings.Contains(out, "DISCONNECTED") {
		t.Fatalf("crash.mjs: %v\n%s\n%s", err, out, stderr.String())
	}
	t.Logf("crash.mjs:\n%s", out)
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Error("the relay did not stop after its upstream died")
	}
}

func TestTokenCompat(t *testing.T) {
	node := requireNode(t)
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	top := srv.URL("a.test", "/second.html")
	openPage(t, top)
	const token = "c0mpat-t0ken"
	r := startRelayWith(t, Options{Upstream: endpointOf(b), Token: token}, nil)
	runNodeTests(t, node, "token.test.mjs", compatEnv(r, srv, top, "TOKEN="+token))
}
