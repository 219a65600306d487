//go:build unix

package tool

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// waitDead polls electron_status until the only session says alive:false,
// and returns that session's entry.
func (e *env) waitDead(id string) map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := e.ok("electron_status", nil)
		ss, _ := st["sessions"].([]any)
		if len(ss) == 1 {
			x := ss[0].(map[string]any)
			if x["session_id"] != id {
				e.t.Fatalf("status lists %v, want session %s", x["session_id"], id)
			}
			if x["alive"] == false {
				return x
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the dead session is not reported dead: %v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// killGroupNow ends a launched browser the way a crash or an OOM kill does.
func killGroupNow(t *testing.T, pgid int) {
	t.Helper()
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	noOrphans(t, pgid)
}

// A launched browser killed behind our back: status says dead, a launch
// replaces the session (no ALREADY_RUNNING), and the old one is gone.
func TestDeadSessionReplacedOnLaunch(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.launch("/index.html")
	old, pid := r["session_id"].(string), num(r["pid"])
	killGroupNow(t, pid)
	x := e.waitDead(old)
	if why, _ := x["ended_why"].(string); !strings.Contains(why, "exited") && !strings.Contains(why, "connection") {
		t.Fatalf("ended_why does not say what happened: %v", x)
	}
	if n, _ := x["note"].(string); !strings.Contains(n, "electron_launch") {
		t.Fatalf("a dead session's status does not say what to do: %v", x)
	}
	r2 := e.launch("/index.html")
	if r2["replaced_dead_session"] != old {
		t.Fatalf("launch over a dead session: replaced_dead_session=%v, want %s (%v)", r2["replaced_dead_session"], old, r2)
	}
	if r2["session_id"] == old || r2["renderer_ready"] != true {
		t.Fatalf("launch did not open a new session: %v", r2)
	}
	st := e.ok("electron_status", nil)
	ss := st["sessions"].([]any)
	if len(ss) != 1 || ss[0].(map[string]any)["session_id"] != r2["session_id"] || ss[0].(map[string]any)["alive"] != true {
		t.Fatalf("after the replacement, status: %v", st)
	}
	e.fails("electron_windows_list", map[string]any{"sessionId": old}, "NOT_RUNNING")
	// The new session works, and a live one still blocks a second launch.
	e.ok("electron_windows_list", nil)
	e.fails("electron_launch", map[string]any{"executablePath": e.chrome}, "ALREADY_RUNNING")
	pid2 := num(r2["pid"])
	s := e.ok("electron_stop", nil)
	if s["action"] != "closed" || s["was_dead"] != nil {
		t.Fatalf("stop of a live session: %v", s)
	}
	noOrphans(t, pid2)
}

// electron_stop on a launched session whose browser died does not claim a
// Browser.close: it says it cleaned up a dead session.
func TestStopOnDeadSessionIsHonest(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.launch("/index.html")
	id, pid := r["session_id"].(string), num(r["pid"])
	killGroupNow(t, pid)
	e.waitDead(id)
	s := e.ok("electron_stop", nil)
	if s["action"] != "cleaned_up" || s["was_dead"] != true || s["method"] != nil || s["escalated"] != nil {
		t.Fatalf("stop on a dead session: %v", s)
	}
	if why, _ := s["ended_why"].(string); why == "" {
		t.Fatalf("stop on a dead session does not say why it ended: %v", s)
	}
	st := e.ok("electron_status", nil)
	if ss := st["sessions"].([]any); len(ss) != 0 {
		t.Fatalf("the dead session remains after stop: %v", st)
	}
	e.fails("electron_stop", nil, "NOT_RUNNING")
}

// An attached browser that goes away: the lost connection makes the
// session dead, stop answers cleaned_up, and a new attach replaces it.
func TestAttachedBrowserGoneIsDead(t *testing.T) {
	e := newEnv(t, Config{})
	b := chromiumtest.Start(t.Context(), t)
	r := e.ok("electron_attach", map[string]any{"port": b.Port})
	id := r["session_id"].(string)
	if err := b.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := browser.LiveGroupMembers(b.PID); len(n) != 0 {
		t.Fatalf("the test browser is still running: %v", n)
	}
	x := e.waitDead(id)
	if why, _ := x["ended_why"].(string); !strings.Contains(why, "connection") {
		t.Fatalf("ended_why of an attached browser that went: %v", x)
	}
	s := e.ok("electron_stop", map[string]any{"closeApp": true})
	if s["action"] != "cleaned_up" || s["was_dead"] != true || s["method"] != nil {
		t.Fatalf("stop on a dead attached session: %v", s)
	}
	// Attach over a dead attached session replaces it.
	b2 := chromiumtest.Start(t.Context(), t)
	r = e.ok("electron_attach", map[string]any{"port": b2.Port})
	id2 := r["session_id"].(string)
	if err := b2.Stop(); err != nil {
		t.Fatal(err)
	}
	e.waitDead(id2)
	b3 := chromiumtest.Start(t.Context(), t)
	r = e.ok("electron_attach", map[string]any{"port": b3.Port})
	if r["replaced_dead_session"] != id2 {
		t.Fatalf("attach over a dead session: %v", r)
	}
	// Detach from a dead session does not claim the app was left running.
	if err := b3.Stop(); err != nil {
		t.Fatal(err)
	}
	e.waitDead(r["session_id"].(string))
	d := e.ok("electron_detach", nil)
	if d["was_dead"] != true || d["app_left_running"] != nil {
		t.Fatalf("detach from a dead session: %v", d)
	}
}
