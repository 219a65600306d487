package assemble

import (
	"cmp"
	"context"
	"net/url"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/consolelog"
	"github.com/understudy-dev/understudy/internal/dialogs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
	"github.com/understudy-dev/understudy/internal/target"
)

// The keys of the services Open hangs on every session.
var (
	DialogsKey        = svc.New[*dialogs.Log]("dialog log")
	ConsoleKey        = svc.New[*consolelog.Log]("console log")
	ConsoleCaptureKey = svc.New[*consolelog.Capture]("console capture")
	DownloadsKey      = svc.New[*capture.Downloads]("downloads")
)

// SocketListener records events of the sockets of a session's pool.
type SocketListener interface {
	OnEvent(s *target.Socket, ev target.Event)
}

// Listener returns the session's T under k, creating it with create and
// making it listen to every socket of the session's pool (until the
// session closes) on first use. On a session that is closing it returns a
// fresh T that listens to nothing.
func Listener[T SocketListener](sess *session.Session, k svc.Key[T], create func() T) T {
	v, err := session.Attach(sess, k, func(context.Context) (T, func() error, error) {
		l := create()
		remove := sess.Pool.Listen(l.OnEvent)
		return l, func() error { remove(); return nil }, nil
	})
	if err != nil {
		return create()
	}
	return v
}

// Dialogs returns the session's dialog log, installing it on first use;
// Open calls it, so dialogs are logged from the start.
func Dialogs(sess *session.Session) *dialogs.Log {
	return Listener(sess, DialogsKey, func() *dialogs.Log { return dialogs.New(sess.Go) })
}

// Console returns the session's console log, installing it (a listener
// on every socket of the session's pool, until the session closes) on
// first use; Open calls it. On a session that is closing it returns a
// fresh log that hears nothing.
func Console(sess *session.Session) *consolelog.Log {
	return Listener(sess, ConsoleKey, func() *consolelog.Log {
		return consolelog.New(consolelog.Options{Surfaces: sess.Surfaces, Next: sess.NextSeq, Spawn: sess.Go})
	})
}

// StartCapture hangs the session's capture (every renderer target's
// Runtime, Page and Log enabled as it appears, crashes noted in the console
// log) on the session, once. Open calls it after the session's listeners
// are in place.
func StartCapture(sess *session.Session) {
	log := Console(sess) // before Attach: create must not attach
	_, _ = session.Attach(sess, ConsoleCaptureKey, func(life context.Context) (*consolelog.Capture, func() error, error) {
		c := consolelog.StartCapture(life, sess.Pool, sess.Surfaces, log)
		return c, c.Close, nil
	})
}

// StartDownloads routes the session's downloads: into dir() (the
// artifacts folder's downloads; an error there refuses them), or, for a
// browser off this machine, nowhere of ours.
func StartDownloads(ctx context.Context, sess *session.Session, dir func() (string, error)) {
	_, _ = session.Attach(sess, DownloadsKey, func(context.Context) (*capture.Downloads, func() error, error) {
		if u, err := url.Parse(cmp.Or(sess.Endpoint.HTTPURL, sess.Endpoint.BrowserWSURL)); err == nil && u.Hostname() != "" && !browser.IsLoopbackHost(u.Hostname()) {
			d := capture.UnmanagedDownloads("the browser runs on " + u.Hostname() + ": its downloads stay on that host")
			return d, d.Close, nil
		}
		d, err := dir()
		if err != nil {
			d = "" // no artifacts folder: refused
		}
		w := capture.WatchDownloads(ctx, sess.Pool.Browser(), d, sess.Proc == nil && sess.EndRemote == nil)
		return w, w.Close, nil
	})
}
