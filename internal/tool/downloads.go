package tool

import (
	"cmp"
	"context"
	"net/url"

	"github.com/understudy-dev/understudy/internal/browser"
	capt "github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
)

// downloadsKey names the session"s downloads.
var downloadsKey = svc.New[*capt.Downloads]("downloads")

// A page's own downloads (an <a download> click) land in
// <artifacts>/downloads, named by their guid, never in the user's folders;
// without an artifacts folder they are refused (docs/files.md).

func registerDownloads(s *Server) {
	define(s, Def{
		Name: "electron_downloads", Title: "List downloads", Profiles: "TD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "List the page's downloads: url, suggested filename, path (under <artifacts>/downloads), state, bytes.",
	}, listDownloads)
}

// startDownloads routes the new session's downloads (openSessionOn).
func startDownloads(ctx context.Context, s *Server, sess *session.Session) {
	_, _ = session.Attach(sess, downloadsKey, func(context.Context) (*capt.Downloads, func() error, error) {
		if u, err := url.Parse(cmp.Or(sess.Endpoint.HTTPURL, sess.Endpoint.BrowserWSURL)); err == nil && u.Hostname() != "" && !browser.IsLoopbackHost(u.Hostname()) {
			d := capt.UnmanagedDownloads("the browser runs on " + u.Hostname() + ": its downloads stay on that host")
			return d, d.Close, nil
		}
		dir, err := s.files.SubDir("downloads")
		if err != nil {
			dir = "" // no artifacts folder: refused
		}
		d := capt.WatchDownloads(ctx, sess.Pool.Browser(), dir, sess.Proc == nil && sess.EndRemote == nil)
		return d, d.Close, nil
	})
}

type downloadsArgs struct {
	Common
}

// DownloadsResult is electron_downloads' answer.
type DownloadsResult struct {
	Handling  string          `json:"handling" jsonschema:"artifacts: saved in dir; deny: refused; unmanaged: where the app saves them (note)"`
	Dir       string          `json:"dir,omitempty"`
	Note      string          `json:"note,omitempty"`
	Downloads []capt.Download `json:"downloads"`
}

func listDownloads(_ context.Context, c *Call, _ *downloadsArgs) (*DownloadsResult, error) {
	d, ok := session.Extra(c.Session, downloadsKey)
	if !ok {
		return &DownloadsResult{Handling: "unmanaged", Note: "downloads are not watched in this session", Downloads: []capt.Download{}}, nil
	}
	r := &DownloadsResult{Downloads: d.List()}
	r.Handling, r.Dir, r.Note = d.Policy()
	return r, nil
}
