package tool

import (
	"context"
	"time"

	capt "github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/emulation"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/session"
)

func registerScreenshot(s *Server) {
	define(s, Def{
		Name: "electron_screenshot", Title: "Screenshot to a file", Profiles: "TD", Class: classRead, Session: true, Image: true,
		Effects: Effects{Does: kAdd, Writes: []string{"path", "dir"}},
		Short:   "Save a PNG or JPEG of a window, element, full page or clip, also returned inline.",
		Desc:    "Save a PNG or JPEG of a window to a file and return its path, pixel size and byte count. By default the window of the active surface, as it shows now; windowId > windowTitle > windowIndex picks another window. ref or selector captures one element of the active surface (scrolled into view first, waiting until it is visible and stable; the box is where it shows in its window, frames included); fullPage the whole scrollable page; clip {x, y, width, height} a rectangle of the window's viewport in CSS pixels. path (a file) or dir (a new file named screenshot-<time>-<n>.<format> in it); neither: the artifacts folder. Files are written only under the allowed roots (the MCP client's roots, the working directory, --app-root, the artifacts folder, --file-root; PATH_NOT_ALLOWED), relative paths land in the artifacts folder, and an existing file is replaced only when this server wrote it or overwrite:true (FILE_EXISTS). format png (default) or jpeg, quality 0-100 for jpeg. The window is brought to the front first (a headless browser renders only the front window).",
	}, screenshot)
}

type screenshotArgs struct {
	Common
	Ref      int        `json:"ref,omitempty" jsonschema:"capture this element (a ref of the active surface)"`
	Selector string     `json:"selector,omitempty" jsonschema:"capture this element (a CSS selector in the active surface)"`
	FullPage bool       `json:"fullPage,omitempty" jsonschema:"capture the whole scrollable page, not only the viewport"`
	Clip     *capt.Clip `json:"clip,omitempty" jsonschema:"capture this rectangle of the viewport"`
	capt.Encoding
	Path        string `json:"path,omitempty" jsonschema:"file to write, under an allowed root; relative: in the artifacts folder"`
	Dir         string `json:"dir,omitempty" jsonschema:"folder to write a new file into, under an allowed root; relative: in the artifacts folder"`
	Overwrite   bool   `json:"overwrite,omitempty" jsonschema:"replace path even if this server did not write it"`
	WindowID    string `json:"windowId,omitempty" jsonschema:"the window to capture (an id from electron_windows_list)"`
	WindowTitle string `json:"windowTitle,omitempty" jsonschema:"the window whose title contains this (case-insensitive)"`
	WindowIndex *int   `json:"windowIndex,omitempty" jsonschema:"the window at this index of electron_windows_list"`
	// InlineMaxSide is read by the MCP layer (inline.go), not the handler.
	InlineMaxSide *int `json:"inlineMaxSide,omitempty" jsonschema:"also return the image inline (MCP image content), scaled so its longer side is at most this many pixels; default 1024, 0: the file only"`
}

func (a *screenshotArgs) element() bool { return a.Ref != 0 || a.Selector != "" }

func (a *screenshotArgs) window() bool {
	return a.WindowID != "" || a.WindowTitle != "" || a.WindowIndex != nil
}

func (a *screenshotArgs) validate() error {
	if a.element() {
		if err := (page.Locator{Ref: a.Ref, Selector: a.Selector}).Check(); err != nil {
			return err
		}
	}
	switch {
	case a.element() && (a.FullPage || a.Clip != nil):
		return errs.BadArg("fullPage", "capture an element (ref/selector), the full page or a clip, one at a time")
	case a.FullPage && a.Clip != nil:
		return errs.BadArg("clip", "capture the full page or a clip, not both")
	case a.element() && a.window():
		return errs.BadArg("windowId", "an element is captured in the active surface's window; drop windowId/windowTitle/windowIndex or switch first")
	case a.Path != "" && a.Dir != "":
		return errs.BadArg("path", "pass path or dir, not both")
	case a.WindowIndex != nil && *a.WindowIndex < 0:
		return errs.BadArg("windowIndex", "must be 0 or more")
	case a.InlineMaxSide != nil && (*a.InlineMaxSide < 0 || *a.InlineMaxSide > maxInlineSide):
		return errs.BadArg("inlineMaxSide", "must be between 0 and %d", maxInlineSide)
	}
	if err := a.Encoding.Check(); err != nil {
		return err
	}
	if a.Clip != nil {
		if err := a.Clip.Check(); err != nil {
			return err
		}
	}
	for field, p := range map[string]string{"path": a.Path, "dir": a.Dir} {
		if err := files.CheckImagePath(field, p); err != nil {
			return err
		}
	}
	return nil // then checked against the roots by files.OutFile
}

// shotTarget is the window a screenshot is taken of.
type shotTarget struct {
	shooter   *capt.Shooter
	windowID  string
	surfaceID string
	clip      *capt.Clip
	// beyond: the element's clip reaches past the viewport, so the shot
	// must capture beyond it (only then: see capt.Rect.Within).
	beyond bool
}

// screenshotResult is electron_screenshot's result.
type screenshotResult struct {
	capt.Shot
	// Emulated is set while emulation_set holds a viewport on the window:
	// the image is that size times its deviceScaleFactor.
	Emulated *emulation.Viewport `json:"emulated_viewport,omitempty" jsonschema:"the viewport emulation_set gave the window (CSS pixels and deviceScaleFactor); the image is this size times the factor"`
	capt.Cut
}

func screenshot(ctx context.Context, c *Call, a *screenshotArgs) (*screenshotResult, error) {
	// Checked against the allowed roots (internal/files); the folder must exist.
	file, generated, err := c.Server.files.OutFile(ctx, a.Path, a.Dir, a.Overwrite, capt.FileName(a.Name(), time.Now()))
	if err != nil {
		return nil, err
	}
	t, err := shotWindow(ctx, c, a)
	if err != nil {
		return nil, err
	}
	clip := t.clip
	if a.Clip != nil {
		clip = a.Clip
	}
	data, shot, cut, err := t.shooter.Take(ctx, &a.Encoding, clip, a.FullPage, a.element() && t.beyond)
	if err != nil {
		return nil, err
	}
	if shot.Path, err = c.Server.files.Write(ctx, files.Out{Field: "path", Path: file, Overwrite: a.Overwrite, Unique: generated}, data); err != nil {
		return nil, err
	}
	shot.WindowID, shot.SurfaceID = t.windowID, t.surfaceID
	return &screenshotResult{Shot: shot, Emulated: emulatedViewport(c, t.windowID), Cut: cut}, nil
}

// shotWindow finds the window to capture (and the element's box), and
// brings it to the front.
func shotWindow(ctx context.Context, c *Call, a *screenshotArgs) (*shotTarget, error) {
	if a.window() {
		wins, _, err := listWindows(ctx, c.Session, false)
		if err != nil {
			return nil, err
		}
		w, err := session.PickWindow(wins, a.WindowID, a.WindowTitle, a.WindowIndex, [3]string{"windowId", "windowTitle", "windowIndex"})
		if err != nil {
			return nil, err
		}
		conn, err := c.Session.Pool.Conn(ctx, w.ID)
		if err != nil {
			return nil, err
		}
		if err := toFront(ctx, c, nav.On(conn), w.ID); err != nil {
			return nil, err
		}
		return &shotTarget{shooter: capt.NewShooter(conn), windowID: w.ID}, nil
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	t := &shotTarget{shooter: capt.NewShooter(res.InputRoot), windowID: res.InputRootID}
	if !a.element() {
		return t, nil
	}
	loc := page.Locator{Ref: a.Ref, Selector: a.Selector}
	if _, err := c.Session.Pages.Act(ctx, f, loc, page.Action{Checks: page.Checks{Visible: true, Scroll: true, Stable: true}}, 5*time.Second); err != nil {
		return nil, err
	}
	box, err := c.Session.Pages.GetBBox(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	ox, oy, err := res.Offset(ctx)
	if err != nil {
		return nil, err
	}
	if t.clip, t.beyond, err = t.shooter.ElementClip(ctx, box.Viewport.X+ox, box.Viewport.Y+oy, box.Viewport.Width, box.Viewport.Height); err != nil {
		return nil, err
	}
	t.surfaceID = res.SurfaceID
	return t, nil
}
