package assemble

import (
	"encoding/json"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
	"github.com/understudy-dev/understudy/internal/session"
)

func TestLaunchArgsCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		a    LaunchArgs
		want string
	}{
		{"executable", LaunchArgs{ExecutablePath: "/bin/app"}, ""},
		{"relaunch alone", LaunchArgs{Relaunch: true, AllowMultiple: true}, ""},
		{"relaunch with args", LaunchArgs{Relaunch: true, Args: []string{"x"}}, "relaunch"},
		{"both", LaunchArgs{ExecutablePath: "/bin/app", Main: "main.js"}, "main"},
		{"instrument without main", LaunchArgs{InstrumentNative: true}, "instrumentNative"},
		{"timeout", LaunchArgs{TimeoutMs: 300001}, "timeoutMs"},
		{"ready timeout", LaunchArgs{ReadyTimeoutMs: -1}, "readyTimeoutMs"},
	} {
		if got := errstest.Field(t, c.a.Check()); got != c.want {
			t.Errorf("%s: field %q, want %q", c.name, got, c.want)
		}
	}
}

func TestLaunchArgsCheckGrid(t *testing.T) {
	const hub = "http://127.0.0.1:4444"
	for _, c := range []struct {
		name  string
		a     LaunchArgs
		field string
	}{
		{"grid", LaunchArgs{Grid: hub, Capabilities: map[string]any{"browserName": "chrome"}}, ""},
		{"capabilities alone", LaunchArgs{Capabilities: map[string]any{}}, "capabilities"},
		{"relaunch", LaunchArgs{Grid: hub, Relaunch: true}, "relaunch"},
		{"dev launch", LaunchArgs{Grid: hub, Main: "main.js"}, "main"},
		{"env", LaunchArgs{Grid: hub, Cwd: "/tmp"}, "env"},
		{"timeout", LaunchArgs{Grid: hub, TimeoutMs: 600001}, "timeoutMs"},
		{"ready timeout", LaunchArgs{Grid: hub, ReadyTimeoutMs: 300001}, "readyTimeoutMs"},
		{"not a grid URL", LaunchArgs{Grid: "ftp://x"}, "grid"},
		{"chromeOptions", LaunchArgs{Grid: hub, Capabilities: map[string]any{"goog:chromeOptions": 1}}, "capabilities"},
	} {
		errstest.CheckField(t, c.name, c.a.CheckGrid(), c.field)
	}
}

func TestAttachArgsCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		a    AttachArgs
		want string
	}{
		{"port", AttachArgs{Port: 9222}, ""},
		{"cdpUrl", AttachArgs{CdpURL: "http://127.0.0.1:9222"}, ""},
		{"auto", AttachArgs{AutoConnect: true, UserDataDir: "/home/u/.config/chromium"}, ""},
		{"nothing", AttachArgs{}, "port"},
		{"both", AttachArgs{Port: 9222, CdpURL: "http://127.0.0.1:9222"}, "cdpUrl"},
		{"port range", AttachArgs{Port: 70000}, "port"},
		{"inspector range", AttachArgs{Port: 9222, InspectorPort: -1}, "inspectorPort"},
		{"pid", AttachArgs{Port: 9222, PID: -1}, "pid"},
		{"inspector off loopback", AttachArgs{Port: 9222, InspectorURL: "ws://example.com:9229/x"}, "inspectorUrl"},
		{"inspector not a URL", AttachArgs{Port: 9222, InspectorURL: "nothing"}, "inspectorUrl"},
		{"dir without auto", AttachArgs{UserDataDir: "/tmp/x"}, "userDataDir"},
		{"auto with port", AttachArgs{AutoConnect: true, Port: 9222}, "autoConnect"},
		{"relative dir", AttachArgs{AutoConnect: true, UserDataDir: "x"}, "userDataDir"},
		{"auto timeout", AttachArgs{AutoConnect: true, TimeoutMs: 300001}, "timeoutMs"},
	} {
		if got := errstest.Field(t, c.a.Check()); got != c.want {
			t.Errorf("%s: field %q, want %q", c.name, got, c.want)
		}
	}
	if err := (&AttachArgs{Port: 9222, Host: "example.com"}).Check(); err == nil {
		t.Error("a host off loopback passed")
	}
}

func TestDiscoverArgsCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		a    DiscoverArgs
		want string
	}{
		{"default", DiscoverArgs{}, ""},
		{"ports", DiscoverArgs{Ports: []int{9222, 9333}}, ""},
		{"bad port", DiscoverArgs{Ports: []int{0}}, "ports"},
		{"too many", DiscoverArgs{Ports: make([]int, 1025)}, "ports"},
		{"timeout", DiscoverArgs{TimeoutMs: 10001}, "timeoutMs"},
	} {
		if got := errstest.Field(t, c.a.Check()); got != c.want {
			t.Errorf("%s: field %q, want %q", c.name, got, c.want)
		}
	}
	if err := (&DiscoverArgs{Host: "example.com"}).Check(); err == nil {
		t.Error("a host off loopback passed")
	}
}

// TestKeepIsTheLaunchJSON: a relaunch reads back what Keep stored, the
// launch's arguments as JSON without relaunch.
func TestKeepIsTheLaunchJSON(t *testing.T) {
	headless := false
	a := LaunchArgs{ExecutablePath: "/bin/app", Args: []string{"--x"}, Env: map[string]string{"A": "1"}, Headless: &headless, Relaunch: true}
	var sess session.Session
	a.Keep(&sess)
	const want = `{"executablePath":"/bin/app","args":["--x"],"env":{"A":"1"},"headless":false}`
	if string(sess.Relaunch) != want {
		t.Fatalf("kept %s, want %s", sess.Relaunch, want)
	}
	if !a.Relaunch {
		t.Fatal("Keep changed the caller's arguments")
	}
	var back LaunchArgs
	if err := json.Unmarshal(sess.Relaunch, &back); err != nil || back.ExecutablePath != "/bin/app" || back.Relaunch {
		t.Fatalf("read back %+v, %v", back, err)
	}
}
