//go:build linux

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/leakcheck"
)

// defaultChromium is Debian's real binary (not the /usr/bin wrapper).
const defaultChromium = "/usr/lib/chromium/chromium"

// helperEnv makes the test binary act as a helper process (see TestMain).
const helperEnv = "UNDERSTUDY_BROWSER_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "launch-and-wait" {
		helperLaunchAndWait()
		return
	}
	os.Exit(leakcheck.Main(m.Run))
}

// helperLaunchAndWait launches Chromium, prints its PID and profile, and
// waits to be killed: the Pdeathsig test kills it with SIGKILL.
func helperLaunchAndWait() {
	p, err := Launch(context.Background(), LaunchOptions{ExecutablePath: chromiumPath(), Timeout: 30 * time.Second})
	if err != nil {
		fmt.Printf("HELPER-ERROR %v\n", err)
		os.Exit(2)
	}
	fmt.Printf("HELPER pid=%d dir=%s\n", p.PID, p.UserDataDir)
	time.Sleep(2 * time.Minute)
	_ = p.Kill()
	os.Exit(3)
}

func chromiumPath() string {
	if p := os.Getenv("UNDERSTUDY_CHROMIUM"); p != "" {
		return p
	}
	return defaultChromium
}

// requireChromium skips under -short; without the browser it fails when
// CI=true and skips otherwise.
func requireChromium(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("real-Chromium test skipped under -short")
	}
	p := chromiumPath()
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Chromium not found at %s (CI=true): %v", p, err)
		}
		t.Skipf("Chromium not found at %s (CI is not true, so skipped): %v", p, err)
	}
	return p
}

// launchChromium launches Chromium for a test and kills it at cleanup.
func launchChromium(t testing.TB, ctx context.Context) *Process {
	t.Helper()
	p, err := Launch(ctx, LaunchOptions{ExecutablePath: requireChromium(t)})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() { _ = p.Kill() })
	return p
}

// groupMembers lists the running (non-zombie) processes of group pgid,
// scanning /proc independently of the code under test.
func groupMembers(t testing.TB, pgid int) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("reading /proc: %v", err)
	}
	var out []string
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) || f[0] == "Z" || f[0] == "X" {
			continue
		}
		comm := string(b[strings.IndexByte(string(b), '(')+1 : i])
		out = append(out, fmt.Sprintf("%d(%s,%s)", pid, comm, f[0]))
	}
	return out
}

// assertNoGroup fails if any process of group pgid still runs.
func assertNoGroup(t testing.TB, pgid int) {
	t.Helper()
	if m := groupMembers(t, pgid); len(m) > 0 {
		t.Fatalf("processes of group %d remain: %v", pgid, m)
	}
}

// waitNoGroup waits up to d for group pgid to have no running process.
func waitNoGroup(t testing.TB, pgid int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		m := groupMembers(t, pgid)
		if len(m) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of group %d remain after %v: %v", pgid, d, m)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// outputPipe returns the identity ("pipe:[INODE]") of p's output pipe, read
// without Fd (which would make the file blocking).
func outputPipe(t testing.TB, p *Process) string {
	t.Helper()
	rc, err := p.outR.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var link string
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		link, lerr = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	}); err != nil || lerr != nil {
		t.Fatalf("reading the output pipe: %v %v", err, lerr)
	}
	if !strings.HasPrefix(link, "pipe:[") {
		t.Fatalf("output is %q, not a pipe", link)
	}
	return link
}

// pipeHolders lists running processes other than us with pipe open: the
// ones that left the group (Chromium's crashpad handler double-forks into
// its own session) still hold the output pipe they inherited.
func pipeHolders(t testing.TB, pipe string) []string {
	t.Helper()
	self := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil || e.Name() == self {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", e.Name(), "fd"))
		for _, fd := range fds {
			if l, _ := os.Readlink(filepath.Join("/proc", e.Name(), "fd", fd.Name())); l == pipe {
				st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
				out = append(out, e.Name()+": "+string(st[:min(len(st), 40)]))
				break
			}
		}
	}
	return out
}

// assertNoOrphans fails if a process of p's group runs, or any process
// still holds its output pipe.
func assertNoOrphans(t testing.TB, p *Process, pipe string) {
	t.Helper()
	assertNoGroup(t, p.PID)
	if h := pipeHolders(t, pipe); len(h) > 0 {
		t.Fatalf("processes still hold the output pipe %s: %v", pipe, h)
	}
}

func assertDirGone(t testing.TB, dir string) {
	t.Helper()
	if dir == "" {
		t.Fatal("no user-data-dir")
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("user-data-dir %s still exists (stat: %v)", dir, err)
	}
}

func assertDone(t testing.TB, p *Process, d time.Duration) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(d):
		t.Fatalf("Done not closed within %v", d)
	}
	select {
	case <-p.outDone:
	default:
		t.Fatal("the output reader still runs after Done")
	}
}

// browserClose returns a closeBrowser func for Stop that sends
// Browser.close over a minimal WebSocket client (no Origin header).
func browserClose(wsURL string) func(context.Context) error {
	return func(ctx context.Context) error {
		c, _, err := websocket.Dial(ctx, wsURL, nil)
		if err != nil {
			return err
		}
		defer c.CloseNow()
		c.SetReadLimit(64 << 20)
		if err := c.Write(ctx, websocket.MessageText, []byte(`{"id":1,"method":"Browser.close"}`)); err != nil {
			return err
		}
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return nil // the browser went away, as asked
			}
			var m struct {
				ID    int `json:"id"`
				Error *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(data, &m) == nil && m.ID == 1 {
				if m.Error != nil {
					return errors.New(m.Error.Message)
				}
				return nil
			}
		}
	}
}

// closedPort returns a loopback port that nothing listens on.
func closedPort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// wantCode fails unless err carries code (and names field, when given).
func wantCode(t testing.TB, err error, code errs.Code, field string) *errs.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	e := errs.As(err)
	if e == nil || e.Code != code {
		t.Fatalf("got %v, want code %s", err, code)
	}
	if field != "" {
		if got, _ := e.Details["field"].(string); got != field {
			t.Fatalf("got field %q (%v), want %q", got, err, field)
		}
	}
	return e
}

// writeScript writes an executable script into dir.
func writeScript(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// readPIDFile waits for a script to write its PID ($$) to path.
func readPIDFile(t testing.TB, path string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no PID in %s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func lookNode(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node not found (CI=true): %v", err)
		}
		t.Skipf("node not found (CI is not true, so skipped): %v", err)
	}
	return p
}
