package tool

import (
	"sync"
	"sync/atomic"

	"github.com/understudy-dev/understudy/internal/trace"
)

// maxTraceConsole bounds the console lines kept with one step.
const maxTraceConsole = 50

// tracing is the server's recording, between trace_start and trace_stop.
type tracing struct {
	mu  sync.Mutex
	rec *trace.Recorder
	// live is rec for the dispatch observer, which every call runs: read
	// without mu (docs/adr/028); written with rec.
	live atomic.Pointer[trace.Recorder]
	// owner is the MCP session that started the recording (over
	// streamable HTTP, without --share-sessions, other clients' calls are
	// not recorded and the trace does not exist for them); written with
	// live, before it.
	owner   atomic.Pointer[string]
	places  map[string]*trace.Place // surface id → where it is, per recording
	console map[string]int64        // session id → last console seq recorded
	network map[string]int64        // session id → last network seq recorded
}

func (t *tracing) recorder() *trace.Recorder { return t.live.Load() }

// take ends the recording for the server: the recorder (nil when none
// records) is the caller's to stop or abort.
func (t *tracing) take() *trace.Recorder {
	t.mu.Lock()
	defer t.mu.Unlock()
	rec := t.rec
	t.rec, t.places, t.console, t.network = nil, nil, nil, nil
	t.live.Store(nil)
	return rec
}
