package network

import (
	"context"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// Conditions emulate a network for a window root: offline, added latency,
// throughput caps (0 is no cap) and a disabled cache.
type Conditions struct {
	Offline       bool    `json:"offline"`
	LatencyMs     float64 `json:"latencyMs"`
	DownloadKbps  float64 `json:"downloadKbps"`
	UploadKbps    float64 `json:"uploadKbps"`
	CacheDisabled bool    `json:"cacheDisabled"`
}

// Zero reports whether c emulates nothing.
func (c Conditions) Zero() bool { return c == Conditions{} }

// SetConditions sets the conditions of one window root (windowID, a page
// or webview target id) or, with windowID "", of every window without
// conditions of its own, including windows that appear later; zero
// conditions clear them. It returns how many targets have them.
func (n *Network) SetConditions(ctx context.Context, windowID string, c Conditions) (int, []Failure, error) {
	n.mu.Lock()
	if c.Zero() {
		delete(n.cond, windowID)
	} else {
		n.cond[windowID] = c
	}
	n.condGen++
	n.mu.Unlock()
	return n.Sync(ctx)
}

// Conditions returns the conditions set, by window ("" for every window).
func (n *Network) Conditions() map[string]Conditions {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make(map[string]Conditions, len(n.cond))
	for k, v := range n.cond {
		out[k] = v
	}
	return out
}

func applyConditions(ctx context.Context, conn *cdp.Conn, c Conditions) error {
	kbps := func(v float64) float64 {
		if v <= 0 {
			return -1
		}
		return v * 1000 / 8 // kilobits per second → bytes per second
	}
	p := map[string]any{"offline": c.Offline, "latency": c.LatencyMs, "downloadThroughput": kbps(c.DownloadKbps), "uploadThroughput": kbps(c.UploadKbps)}
	if err := conn.Call(ctx, "Network.emulateNetworkConditions", p, nil); err != nil {
		return err
	}
	return conn.Call(ctx, "Network.setCacheDisabled", map[string]any{"cacheDisabled": c.CacheDisabled}, nil)
}
