package relay

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// targetInfo is CDP's Target.TargetInfo as the relay reads and writes it.
type targetInfo struct {
	TargetID         string `json:"targetId"`
	Type             string `json:"type"`
	Title            string `json:"title"`
	URL              string `json:"url"`
	Attached         bool   `json:"attached"`
	OpenerID         string `json:"openerId,omitempty"`
	CanAccessOpener  bool   `json:"canAccessOpener"`
	OpenerFrameID    string `json:"openerFrameId,omitempty"`
	ParentFrameID    string `json:"parentFrameId,omitempty"`
	BrowserContextID string `json:"browserContextId,omitempty"`
	Subtype          string `json:"subtype,omitempty"`
}

// target is one upstream target as the hub knows it.
type target struct {
	info  targetInfo // as upstream reports it (a webview keeps its type here)
	seq   uint64     // creation order, for stable listings
	tabID string     // the id of the tab target the relay shows above a page
}

// pageLike reports whether clients see the target as a page: a page, or an
// Electron webview guest (which the relay reports as a page).
func (t *target) pageLike() bool { return isPageType(t.info.Type) }

func isPageType(typ string) bool { return typ == "page" || typ == "webview" }

// hiddenType reports target types the relay never shows: the browser itself
// and tab targets (the relay shows its own), and Chromium's omnibox popups.
func hiddenType(typ string) bool {
	return typ == "browser" || typ == "tab" || typ == "browser_ui"
}

// view returns the TargetInfo a client sees: webviews are pages and
// "attached" is the client's own.
func (t *target) view(attached bool) targetInfo {
	v := t.info
	if v.Type == "webview" {
		v.Type = "page"
	}
	v.Attached = attached
	return v
}

// tabView returns the TargetInfo of the tab target above a page.
func (t *target) tabView(attached bool) targetInfo {
	return targetInfo{
		TargetID:         t.tabID,
		Type:             "tab",
		Title:            t.info.Title,
		URL:              t.info.URL,
		Attached:         attached,
		BrowserContextID: t.info.BrowserContextID,
	}
}

// targetFilter is CDP's Target.TargetFilter: the first entry whose type
// matches (an entry without type matches all) decides; no match excludes.
type targetFilter []filterEntry

type filterEntry struct {
	Type    string `json:"type,omitempty"`
	Exclude bool   `json:"exclude,omitempty"`
}

// allows applies the filter to a target type. A nil filter is Chromium's
// default: everything but browser and tab targets.
func (f targetFilter) allows(typ string) bool {
	if f == nil {
		return typ != "browser" && typ != "tab"
	}
	for _, e := range f {
		if e.Type == "" || e.Type == typ {
			return !e.Exclude
		}
	}
	return false
}

// newSessionID returns a random id shaped like Chromium's session and
// target ids: 32 upper-case hex digits.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return strings.ToUpper(hex.EncodeToString(b[:]))
}

// newUUID returns a random version 4 UUID, the shape of a browser target id.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// decodeParams decodes a command's params into v; absent params leave v as
// it is.
func decodeParams(raw []byte, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, v)
}
