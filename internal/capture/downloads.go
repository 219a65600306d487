package capture

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp/jsonv2"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// Download is one download a page started (Browser.downloadWillBegin and
// Browser.downloadProgress).
type Download struct {
	GUID              string `json:"guid"`
	URL               string `json:"url"`
	SuggestedFilename string `json:"suggested_filename"`
	// Path is where the file lands: <downloads folder>/<guid> (Chromium
	// names it by its guid, so it never replaces a file).
	Path          string  `json:"path,omitempty"`
	State         string  `json:"state"` // inProgress, completed, canceled
	ReceivedBytes float64 `json:"received_bytes"`
	TotalBytes    float64 `json:"total_bytes"`
	FrameID       string  `json:"frame_id,omitempty"`
}

// maxDownloads bounds the downloads remembered per session; past it the
// oldest finished one is forgotten (its file stays).
const maxDownloads = 200

// Downloads routes a browser's downloads into one folder and keeps what
// became of each. Its goroutine is its own: Close ends it.
type Downloads struct {
	dir    string // "" when downloads are refused
	policy string // "artifacts", "deny" or "unmanaged"
	note   string

	mu   sync.Mutex
	list []*Download

	stop    []func()
	wg      sync.WaitGroup
	restore func()
}

// WatchDownloads points every download of the browser behind conn (its
// browser socket) at dir with Browser.setDownloadBehavior (allowAndName:
// each file is named by its guid) and records their progress; dir "" denies
// downloads. A browser that refuses the setting (some Electron builds) is
// reported as unmanaged: its downloads go where the app sends them.
// restoreOnClose sets the default behaviour back on Close (an app we
// attached to, not ours).
func WatchDownloads(ctx context.Context, conn *cdp.Conn, dir string, restoreOnClose bool) *Downloads {
	d := &Downloads{dir: dir, policy: "artifacts"}
	will, stop1 := conn.Subscribe("Browser.downloadWillBegin")
	prog, stop2 := conn.Subscribe("Browser.downloadProgress")
	d.stop = []func(){stop1, stop2}
	params := map[string]any{"behavior": "allowAndName", "downloadPath": dir, "eventsEnabled": true}
	if dir == "" {
		params = map[string]any{"behavior": "deny", "eventsEnabled": true}
		d.policy = "deny"
	}
	if err := conn.Call(ctx, "Browser.setDownloadBehavior", params, nil); err != nil {
		d.policy, d.dir, d.note = "unmanaged", "", "the browser refused Browser.setDownloadBehavior ("+err.Error()+"); its downloads go where the app sends them"
	} else if restoreOnClose {
		d.restore = func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = conn.Call(ctx, "Browser.setDownloadBehavior", map[string]any{"behavior": "default"}, nil)
		}
	}
	d.wg.Add(2)
	go d.drain(will, d.begin)
	go d.drain(prog, d.progress)
	return d
}

// UnmanagedDownloads is the record of a browser whose downloads are not
// routed (a browser on another host: a path here means nothing there).
func UnmanagedDownloads(note string) *Downloads {
	return &Downloads{policy: "unmanaged", note: note}
}

func (d *Downloads) drain(ch <-chan jsonv2.Value, fn func([]byte)) {
	defer d.wg.Done()
	for v := range ch {
		fn([]byte(v))
	}
}

func (d *Downloads) begin(raw []byte) {
	var p struct {
		FrameID           string `json:"frameId"`
		GUID              string `json:"guid"`
		URL               string `json:"url"`
		SuggestedFilename string `json:"suggestedFilename"`
	}
	if json.Unmarshal(raw, &p) != nil || p.GUID == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	dl := d.entry(p.GUID, "inProgress")
	dl.URL, dl.SuggestedFilename, dl.FrameID = p.URL, p.SuggestedFilename, p.FrameID
	if d.dir != "" {
		dl.Path = filepath.Join(d.dir, p.GUID)
	}
	if d.policy == "deny" {
		dl.State = "canceled"
	}
}

func (d *Downloads) progress(raw []byte) {
	var p struct {
		GUID          string  `json:"guid"`
		TotalBytes    float64 `json:"totalBytes"`
		ReceivedBytes float64 `json:"receivedBytes"`
		State         string  `json:"state"`
	}
	if json.Unmarshal(raw, &p) != nil || p.GUID == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	dl := d.entry(p.GUID, "")
	dl.TotalBytes, dl.ReceivedBytes, dl.State = p.TotalBytes, p.ReceivedBytes, p.State
}

// entry is the download with guid, added in state when it is new (a
// progress event can come first); d.mu is held.
func (d *Downloads) entry(guid, state string) *Download {
	dl := d.find(guid)
	if dl == nil {
		dl = &Download{GUID: guid, State: state}
		d.add(dl)
	}
	return dl
}

// find is the download with guid; d.mu is held.
func (d *Downloads) find(guid string) *Download {
	for _, x := range d.list {
		if x.GUID == guid {
			return x
		}
	}
	return nil
}

// add appends dl, forgetting the oldest finished download when full; d.mu
// is held.
func (d *Downloads) add(dl *Download) {
	if len(d.list) >= maxDownloads {
		drop := 0
		for i, x := range d.list {
			if x.State != "inProgress" {
				drop = i
				break
			}
		}
		d.list = append(d.list[:drop], d.list[drop+1:]...)
	}
	d.list = append(d.list, dl)
}

// List returns the downloads, oldest first.
func (d *Downloads) List() []Download {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Download, len(d.list))
	for i, x := range d.list {
		out[i] = *x
	}
	return out
}

// Policy says where downloads go: "artifacts" (Dir), "deny" (refused) or
// "unmanaged" (Note says why).
func (d *Downloads) Policy() (policy, dir, note string) { return d.policy, d.dir, d.note }

// Close stops recording (and restores the browser's default behaviour for
// an app we attached to).
func (d *Downloads) Close() error {
	if d.restore != nil {
		d.restore()
	}
	for _, s := range d.stop {
		s()
	}
	d.wg.Wait()
	return nil
}

// DownloadList is what a caller reads of a session's downloads: where
// they go and the downloads.
type DownloadList struct {
	Handling  string     `json:"handling" jsonschema:"artifacts: saved in dir; deny: refused; unmanaged: where the app saves them (note)"`
	Dir       string     `json:"dir,omitempty"`
	Note      string     `json:"note,omitempty"`
	Downloads []Download `json:"downloads"`
}

// Listing is d's downloads and where they go; for a nil d (a session
// whose downloads are not watched) none, unmanaged.
func (d *Downloads) Listing() *DownloadList {
	if d == nil {
		return &DownloadList{Handling: "unmanaged", Note: "downloads are not watched in this session", Downloads: []Download{}}
	}
	r := &DownloadList{Downloads: d.List()}
	r.Handling, r.Dir, r.Note = d.Policy()
	return r
}
