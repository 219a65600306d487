package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/session"
)

// launchArgs are electron_launch's arguments (assemble.LaunchArgs).
type launchArgs struct {
	Common
	assemble.LaunchArgs
}

// publish registers a complete session with the manager; exclusive refuses
// when another is open. Before it, no other call can see the session.
func publish(c *Call, sess *session.Session, exclusive bool) error {
	var counts func(*session.Session) bool
	if exclusive {
		// Only the caller's own sessions (all with --share-sessions).
		s := c.Server
		me := s.owners.Of(sess.ID) // set when the session was opened
		counts = func(x *session.Session) bool { return s.owners.Sees(me, x.ID) }
	}
	if err := c.Server.sessions.PublishAmong(sess, counts); err != nil {
		return err
	}
	c.SetSessionID(sess.ID)
	c.Server.log.Info("session opened", "session", sess.ID, "mode", string(sess.Mode), "pid", sess.PID)
	return nil
}

// assemblyEnv is what the server lends internal/assemble for a call's
// new session: its ids, its downloads folder and the call's progress.
func assemblyEnv(c *Call) assemble.Env {
	return assemble.Env{NextID: c.Server.sessions.NextID, Progress: c.Step,
		DownloadsDir: func() (string, error) { return c.Server.files.SubDir("downloads") }}
}

// listWindows reads the window roots (assemble.Windows).
func listWindows(ctx context.Context, sess *session.Session, probe bool) ([]session.WindowEntry, string, error) {
	return assemble.Windows(ctx, sess, probe)
}
