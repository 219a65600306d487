package relay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// What clients own beyond targets (docs/adr/035): the browser contexts
// they create, and the one folder their downloads may go to.

// setDownloadDir decides the downloads folder (Options.DownloadDir).
func (r *Relay) setDownloadDir() error {
	switch {
	case r.opts.DownloadDir != "":
		abs, err := filepath.Abs(r.opts.DownloadDir)
		if err != nil {
			return errs.BadArg("downloadDir", "%v", err)
		}
		r.downloadDir = abs
	case r.opts.Files != nil:
		art, err := r.opts.Files.ArtifactsDir()
		if err != nil {
			return err
		}
		r.downloadDir = filepath.Join(art, "relay-downloads")
	default:
		r.downloadDir = filepath.Join(os.TempDir(), "understudy-relay-"+r.browserID, "downloads")
		r.tempDL = true
	}
	return nil
}

// DownloadDir is the relay's downloads folder (Options.DownloadDir).
func (r *Relay) DownloadDir() string { return r.downloadDir }

// downloadPath returns the folder a Browser.setDownloadBehavior may name,
// created (0700) if needed: dir itself when it is the downloads folder or
// inside it (symbolic links resolved), else the downloads folder.
func (r *Relay) downloadPath(dir string) (string, error) {
	if err := os.MkdirAll(r.downloadDir, 0o700); err != nil {
		return "", fmt.Errorf("creating the downloads folder %s: %w", r.downloadDir, err)
	}
	root, err := filepath.EvalSymlinks(r.downloadDir)
	if err != nil {
		return "", err
	}
	if dir != "" && filepath.IsAbs(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil && within(real, root) {
			return dir, nil
		}
	}
	return r.downloadDir, nil
}

// within reports whether p is root or inside it (both clean and absolute).
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// fileURL judges a file: URL against the operator's roots (nil: none).
func (r *Relay) fileURL() func(string) error {
	if r.opts.Files == nil {
		return nil
	}
	return func(raw string) error { return r.opts.Files.CheckURL(r.ctx, "url", raw) }
}

// filePath judges a host path a client hands a page (DOM.setFileInputFiles)
// against the operator's roots, symlinks resolved (nil: none).
func (r *Relay) filePath() func(string) error {
	if r.opts.Files == nil {
		return nil
	}
	return func(path string) error {
		_, err := r.opts.Files.CheckRead(r.ctx, "files", path)
		return err
	}
}

// ctxOf tells client id whose the browser context is.
func (r *Relay) ctxOf(client uint64, id string) ctxOwner {
	r.ctxMu.Lock()
	defer r.ctxMu.Unlock()
	owner, ok := r.ctxOwners[id]
	switch {
	case !ok:
		return ctxNobody
	case owner == client:
		return ctxMine
	}
	return ctxAnother
}

func (r *Relay) ownCtx(client uint64, id string) {
	r.ctxMu.Lock()
	r.ctxOwners[id] = client
	r.ctxMu.Unlock()
}

func (r *Relay) dropCtx(id string) {
	r.ctxMu.Lock()
	delete(r.ctxOwners, id)
	r.ctxMu.Unlock()
}

func (r *Relay) ownedContexts() int {
	r.ctxMu.Lock()
	defer r.ctxMu.Unlock()
	return len(r.ctxOwners)
}

// dropClientCtxs forgets every context of a client that is gone.
func (r *Relay) dropClientCtxs(client uint64) {
	r.ctxMu.Lock()
	for id, owner := range r.ctxOwners {
		if owner == client {
			delete(r.ctxOwners, id)
		}
	}
	r.ctxMu.Unlock()
}

// setDownloadBehavior sends a client's Browser.setDownloadBehavior with
// the downloads folder the relay allows (downloadPath), the rest of the
// params as Chromium reads them (exact member names; a name given twice is
// refused by the guard's reading). It answers {} even when the upstream
// refuses (Electron does; Playwright awaits the answer while it connects).
func (c *client) setDownloadBehavior(s *session, id int64, params []byte) {
	sid := s.id
	out := params
	if !operatorAllows(c.r.allow, "Browser.setDownloadBehavior") {
		var p map[string]json.RawMessage
		if err := decodeParams(params, &p); err != nil {
			c.replyErr(sid, id, codeInvalidParams, "Invalid parameters: "+err.Error())
			return
		}
		if p == nil {
			p = map[string]json.RawMessage{}
		}
		for k := range p {
			if k != "downloadPath" && strings.EqualFold(k, "downloadPath") {
				c.replyErr(sid, id, codeInvalidParams, "relay: Browser.setDownloadBehavior with a member named "+k+" is refused")
				return
			}
		}
		var dir string
		if raw, ok := p["downloadPath"]; ok {
			_ = json.Unmarshal(raw, &dir)
		}
		var behavior string
		_ = json.Unmarshal(p["behavior"], &behavior)
		if behavior != "deny" && behavior != "default" {
			path, err := c.r.downloadPath(dir)
			if err != nil {
				c.replyErr(sid, id, codeServerError, "relay: "+err.Error())
				return
			}
			if path != dir {
				c.r.log.Debug("relay: a client's downloads go to the relay's folder", "client", c.id, "asked", dir, "folder", path)
			}
			p["downloadPath"], _ = json.Marshal(path)
			out, _ = json.Marshal(p)
		}
	}
	c.relayCall(s, "Browser.setDownloadBehavior", out, func(_ json.RawMessage, err error) {
		if err != nil {
			c.r.log.Debug("relay: upstream refused Browser.setDownloadBehavior", "err", err)
		}
		c.reply(sid, id, nil)
	})
}

// createBrowserContext creates a context on the client's own browser
// socket and records it as the client's.
func (c *client) createBrowserContext(s *session, id int64, params []byte) {
	sid := s.id
	c.relayCall(s, "Target.createBrowserContext", params, func(res json.RawMessage, err error) {
		if err != nil {
			c.replyCallErr(sid, id, err)
			return
		}
		var r struct {
			ID string `json:"browserContextId"`
		}
		if json.Unmarshal(res, &r) == nil && r.ID != "" {
			c.r.ownCtx(c.id, r.ID)
		}
		c.reply(sid, id, res)
	})
}

// disposeBrowserContext disposes one of the client's contexts (the guard
// checked it is) and forgets it.
func (c *client) disposeBrowserContext(s *session, id int64, params []byte) {
	sid := s.id
	ids, _ := paramStrings(params, "browserContextId")
	c.relayCall(s, "Target.disposeBrowserContext", params, func(res json.RawMessage, err error) {
		if err != nil {
			c.replyCallErr(sid, id, err)
			return
		}
		for _, x := range ids {
			c.r.dropCtx(x)
		}
		c.reply(sid, id, res)
	})
}

// getBrowserContexts lists the app's contexts and the client's own, not
// other clients'.
func (c *client) getBrowserContexts(s *session, id int64, params []byte) {
	sid := s.id
	c.relayCall(s, "Target.getBrowserContexts", params, func(res json.RawMessage, err error) {
		if err != nil {
			c.replyCallErr(sid, id, err)
			return
		}
		var p map[string]json.RawMessage
		var ids []string
		if json.Unmarshal(res, &p) != nil || json.Unmarshal(p["browserContextIds"], &ids) != nil {
			c.reply(sid, id, res)
			return
		}
		kept := []string{}
		for _, x := range ids {
			if c.r.ctxOf(c.id, x) != ctxAnother {
				kept = append(kept, x)
			}
		}
		p["browserContextIds"], _ = json.Marshal(kept)
		c.reply(sid, id, p)
	})
}
