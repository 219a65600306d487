package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/assemble"
	capt "github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/session"
)

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

type downloadsArgs struct {
	Common
}

func listDownloads(_ context.Context, c *Call, _ *downloadsArgs) (*capt.DownloadList, error) {
	d, _ := session.Extra(c.Session, assemble.DownloadsKey) // nil when not watched
	return d.Listing(), nil
}
