package relay

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// The hub is the goroutine that owns the relay's view of the upstream
// browser: the table of targets, learned from Target.setDiscoverTargets on
// the relay's own browser socket (the monitor), and the set of connected
// clients. It tells every client about target changes through the client's
// mailbox, which never blocks, so a slow client cannot stall the hub.

// hub messages (on hub.in).
type (
	monEvent struct {
		method string
		params json.RawMessage
	}
	monClosed   struct{ err error }
	hubRegister struct {
		c     *client
		reply chan hubSnapshot
	}
	hubUnregister struct{ c *client }
	hubSync       struct{ done chan struct{} }
)

// hubSnapshot is what a client gets when it registers.
type hubSnapshot struct {
	targets []target // in creation order
	seq     uint64   // the creation order of the newest target so far
	lost    bool     // the upstream browser is already gone
}

// mailbox messages (to clients).
type (
	mailTarget struct {
		t       target
		created bool
	}
	mailTargetGone    struct{ id string }
	mailTargetCrashed struct {
		id     string
		params json.RawMessage
	}
	mailUpstreamGone struct{}
)

type hub struct {
	r   *Relay
	mon *upstream
	in  chan any

	// owned by run
	targets map[string]*target
	seq     uint64
	clients map[*client]struct{}
	lost    bool
}

func newHub(r *Relay, mon *upstream) *hub {
	return &hub{
		r:       r,
		mon:     mon,
		in:      make(chan any, 1024),
		targets: map[string]*target{},
		clients: map[*client]struct{}{},
	}
}

// send queues a message for the hub; it gives up when the relay is closing.
func (h *hub) send(ctx context.Context, m any) bool {
	select {
	case h.in <- m:
		return true
	case <-ctx.Done():
		return false
	}
}

// run is the hub's loop. It returns when ctx ends.
func (h *hub) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-h.in:
			h.handle(m)
		}
	}
}

func (h *hub) handle(m any) {
	switch m := m.(type) {
	case monEvent:
		h.onEvent(m)
	case monClosed:
		if h.lost {
			return
		}
		h.lost = true
		h.r.log.Warn("relay: upstream browser connection closed", "err", m.err)
		for c := range h.clients {
			c.mail.post(mailUpstreamGone{})
		}
		h.r.upstreamLost()
	case hubRegister:
		snap := hubSnapshot{lost: h.lost, seq: h.seq}
		if !h.lost {
			h.clients[m.c] = struct{}{}
			snap.targets = h.ordered()
		}
		m.reply <- snap
	case hubUnregister:
		delete(h.clients, m.c)
	case hubSync:
		close(m.done)
	}
}

func (h *hub) onEvent(m monEvent) {
	switch m.method {
	case "Target.targetCreated", "Target.targetInfoChanged":
		var p struct {
			TargetInfo targetInfo `json:"targetInfo"`
		}
		if err := json.Unmarshal(m.params, &p); err != nil || p.TargetInfo.TargetID == "" {
			return
		}
		info := p.TargetInfo
		t, known := h.targets[info.TargetID]
		if hiddenType(info.Type) {
			if known { // it turned into something we do not show
				delete(h.targets, info.TargetID)
				h.broadcast(mailTargetGone{id: info.TargetID})
			}
			return
		}
		if !known {
			h.seq++
			t = &target{seq: h.seq}
			h.targets[info.TargetID] = t
		}
		if info.URL == "" && t.info.URL != "" {
			info.URL = t.info.URL // Chromium blanks it for a moment while a new tab navigates
		}
		t.info = info
		if t.pageLike() && t.tabID == "" {
			t.tabID = newSessionID()
		}
		h.broadcast(mailTarget{t: *t, created: !known})
	case "Target.targetDestroyed":
		var p struct {
			TargetID string `json:"targetId"`
		}
		if json.Unmarshal(m.params, &p) != nil {
			return
		}
		if _, ok := h.targets[p.TargetID]; ok {
			delete(h.targets, p.TargetID)
			h.broadcast(mailTargetGone{id: p.TargetID})
		}
	case "Target.targetCrashed":
		var p struct {
			TargetID string `json:"targetId"`
		}
		if json.Unmarshal(m.params, &p) != nil {
			return
		}
		if _, ok := h.targets[p.TargetID]; ok {
			h.broadcast(mailTargetCrashed{id: p.TargetID, params: m.params})
		}
	}
}

func (h *hub) broadcast(m any) {
	for c := range h.clients {
		c.mail.post(m)
	}
}

func (h *hub) ordered() []target {
	out := make([]target, 0, len(h.targets))
	for _, t := range h.targets {
		out = append(out, *t)
	}
	sortTargets(out)
	return out
}

// readMonitor reads the relay's own browser socket and feeds target events
// to the hub until the socket ends.
func (h *hub) readMonitor(ctx context.Context) {
	defer h.mon.failPending()
	for {
		_, b, err := h.mon.ws.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				h.send(ctx, monClosed{err: err})
			}
			return
		}
		env, err := cdp.ScanEnvelope(b)
		if err != nil || h.mon.deliver(&env, b) || env.Method == "" {
			continue
		}
		if len(env.Method) > 7 && env.Method[:7] == "Target." {
			if !h.send(ctx, monEvent{method: env.Method, params: json.RawMessage(env.Params)}) {
				return
			}
		}
	}
}

// mailbox is a client's inbox for hub messages. post never blocks; a client
// that lets maxMail messages pile up is failed by its owner.
type mailbox struct {
	mu       sync.Mutex
	items    []any
	overflow bool
	ready    chan struct{}
}

const maxMail = 1 << 16

func newMailbox() *mailbox { return &mailbox{ready: make(chan struct{}, 1)} }

func (m *mailbox) post(x any) {
	m.mu.Lock()
	if len(m.items) >= maxMail {
		m.overflow = true
	} else {
		m.items = append(m.items, x)
	}
	m.mu.Unlock()
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

// take returns every waiting message, oldest first.
func (m *mailbox) take() ([]any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	items := m.items
	m.items = nil
	return items, m.overflow
}
