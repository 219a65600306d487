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

// DownloadsResult is electron_downloads' answer.
type DownloadsResult struct {
	Handling  string          `json:"handling" jsonschema:"artifacts: saved in dir; deny: refused; unmanaged: where the app saves them (note)"`
	Dir       string          `json:"dir,omitempty"`
	Note      string          `json:"note,omitempty"`
	Downloads []capt.Download `json:"downloads"`
}

func listDownloads(_ context.Context, c *Call, _ *downloadsArgs) (*DownloadsResult, error) {
	d, ok := session.Extra(c.Session, assemble.DownloadsKey)
	if !ok {
		return &DownloadsResult{Handling: "unmanaged", Note: "downloads are not watched in this session", Downloads: []capt.Download{}}, nil
	}
	r := &DownloadsResult{Downloads: d.List()}
	r.Handling, r.Dir, r.Note = d.Policy()
	return r, nil
}
