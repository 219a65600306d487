package network

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Stub says how to answer the requests it matches. Exactly one of Abort,
// Continue, HAR or the fulfil fields applies.
type Stub struct {
	ID    string
	Match *Matcher
	// Fulfil.
	Status      int
	Headers     map[string]string
	ContentType string
	Body        []byte
	// Abort is a network error name (failed, aborted, timedout,
	// accessdenied, connectionclosed, connectionreset, connectionrefused,
	// connectionaborted, connectionfailed, namenotresolved,
	// internetdisconnected, addressunreachable, blockedbyclient,
	// blockedbyresponse).
	Abort string
	// Continue sends the request on, changed.
	Continue *Continue
	// HAR answers from a recorded archive; NotFound is "abort" or
	// "fallback" (continue to the network) for requests it lacks.
	HAR      *Archive
	NotFound string
	DelayMs  int
	// Times expires the stub after that many uses; 0 is unlimited.
	Times int
	Used  int
}

// Continue changes a request that goes on to the network.
type Continue struct {
	URL      string
	Method   string
	Headers  map[string]string
	PostData *string
}

// errorReasons maps Playwright's abort names to Fetch.ErrorReason.
var errorReasons = map[string]string{"failed": "Failed", "aborted": "Aborted", "timedout": "TimedOut", "accessdenied": "AccessDenied",
	"connectionclosed": "ConnectionClosed", "connectionreset": "ConnectionReset", "connectionrefused": "ConnectionRefused",
	"connectionaborted": "ConnectionAborted", "connectionfailed": "ConnectionFailed", "namenotresolved": "NameNotResolved",
	"internetdisconnected": "InternetDisconnected", "addressunreachable": "AddressUnreachable", "blockedbyclient": "BlockedByClient",
	"blockedbyresponse": "BlockedByResponse"}

// AbortReason returns the Fetch error reason of an abort name.
func AbortReason(name string) (string, bool) {
	r, ok := errorReasons[strings.ToLower(name)]
	return r, ok
}

// AbortNames lists the abort names, sorted.
func AbortNames() []string {
	out := make([]string, 0, len(errorReasons))
	for k := range errorReasons {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// AddStub installs a stub (after the others: the first match wins) and
// enables interception on every target, returning the stub's id and how
// many targets intercept.
func (n *Network) AddStub(ctx context.Context, s *Stub) (string, int, []Failure, error) {
	n.mu.Lock()
	n.stubSeq++
	s.ID = "stub-" + strconv.Itoa(n.stubSeq)
	n.stubs = append(n.stubs, s)
	n.mu.Unlock()
	k, fails, err := n.Sync(ctx)
	return s.ID, k, fails, err
}

// RemoveStubs removes the stub with this id, the stubs whose URL list
// holds url (exactly), or all of them when both are empty; interception
// ends on every target when none remains. It returns the ids removed.
func (n *Network) RemoveStubs(ctx context.Context, id, url string) ([]string, error) {
	n.mu.Lock()
	var gone []string
	keep := n.stubs[:0:0]
	for _, s := range n.stubs {
		match := id == "" && url == "" || id != "" && s.ID == id
		if url != "" && !match {
			for _, u := range s.Match.Spec().URLs {
				if u == url {
					match = true
				}
			}
		}
		if match {
			gone = append(gone, s.ID)
		} else {
			keep = append(keep, s)
		}
	}
	n.stubs = keep
	n.mu.Unlock()
	_, _, err := n.Sync(ctx)
	return gone, err
}

// StubInfo describes an active stub.
type StubInfo struct {
	ID      string   `json:"id"`
	URLs    []string `json:"urls,omitempty"`
	Globs   []string `json:"globs,omitempty"`
	Regex   string   `json:"regex,omitempty"`
	Methods []string `json:"methods,omitempty"`
	Action  string   `json:"action"`
	Used    int      `json:"used"`
	Times   int      `json:"times,omitempty"`
}

// Stubs lists the active stubs in match order.
func (n *Network) Stubs() []StubInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]StubInfo, 0, len(n.stubs))
	for _, s := range n.stubs {
		m := s.Match.Spec()
		out = append(out, StubInfo{ID: s.ID, URLs: m.URLs, Globs: m.Globs, Regex: m.Regex, Methods: m.Methods, Action: s.Action(), Used: s.Used, Times: s.Times})
	}
	return out
}

// Action is what the stub does with a request: abort, continue, har
// (answered from a HAR) or fulfill.
func (s *Stub) Action() string {
	switch {
	case s.Abort != "":
		return "abort"
	case s.Continue != nil:
		return "continue"
	case s.HAR != nil:
		return "har"
	}
	return "fulfill"
}

type pausedEvent struct {
	RequestID    string       `json:"requestId"`
	Request      *wireRequest `json:"request"`
	FrameID      string       `json:"frameId"`
	ResourceType string       `json:"resourceType"`
	NetworkID    string       `json:"networkId"`
}

// onPaused runs on a socket's reader: it picks the stub and answers in a
// goroutine of its own. Every paused request is answered: by its stub, by
// a continue when none matches, and when the Network is closing by the
// Fetch.disable that Close sends.
func (n *Network) onPaused(targetID string, params []byte) {
	var ev pausedEvent
	if json.Unmarshal(params, &ev) != nil || ev.Request == nil {
		return
	}
	var sid string
	if n.cfg.Surfaces != nil {
		sid, _ = n.cfg.Surfaces.SurfaceOf(ev.FrameID)
	}
	n.mu.Lock()
	var stub *Stub
	var delay int
	for i, s := range n.stubs {
		if !s.Match.Request(ev.Request.URL, ev.Request.Method, ev.ResourceType, sid) {
			continue
		}
		if s.HAR != nil && s.NotFound == "fallback" && s.HAR.Lookup(ev.Request.Method, ev.Request.URL, ev.Request.PostData) == nil {
			continue // the archive lacks it: later stubs or the network
		}
		s.Used++
		stub, delay = s, s.DelayMs
		if s.Times > 0 && s.Used >= s.Times {
			n.stubs = append(n.stubs[:i:i], n.stubs[i+1:]...)
		}
		break
	}
	if stub != nil && ev.NetworkID != "" && len(n.stubbedBy) < maxPending {
		n.stubbedBy[pkey{targetID, ev.NetworkID}] = stub.ID
	}
	n.pausedNow++
	n.mu.Unlock()
	n.spawn(func() {
		if delay > 0 {
			t := time.NewTimer(time.Duration(delay) * time.Millisecond)
			select {
			case <-t.C:
			case <-n.life.Done(): // closing: answer now
			}
			t.Stop()
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(n.life), answerTimeout)
		defer cancel()
		err := n.answer(ctx, targetID, &ev, stub)
		n.mu.Lock()
		n.pausedNow--
		if err == nil {
			n.answered++
		}
		n.mu.Unlock()
	})
}

type headerEntry struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func headerList(h map[string]string) []headerEntry {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]headerEntry, 0, len(h))
	for _, k := range keys {
		out = append(out, headerEntry{k, h[k]})
	}
	return out
}

// answer fulfils, fails or continues one paused request.
func (n *Network) answer(ctx context.Context, targetID string, ev *pausedEvent, s *Stub) error {
	conn, err := n.cfg.Pool.Conn(ctx, targetID)
	if err != nil {
		return err
	}
	cont := func() error {
		return conn.Call(ctx, "Fetch.continueRequest", map[string]any{"requestId": ev.RequestID}, nil)
	}
	if s == nil || n.life.Err() != nil { // no stub, or closing: on to the network
		return cont()
	}
	switch {
	case s.Abort != "":
		reason, _ := AbortReason(s.Abort)
		return conn.Call(ctx, "Fetch.failRequest", map[string]any{"requestId": ev.RequestID, "errorReason": reason}, nil)
	case s.Continue != nil:
		p := map[string]any{"requestId": ev.RequestID}
		c := s.Continue
		if c.URL != "" {
			p["url"] = c.URL
		}
		if c.Method != "" {
			p["method"] = c.Method
		}
		if c.PostData != nil {
			p["postData"] = base64.StdEncoding.EncodeToString([]byte(*c.PostData))
		}
		if len(c.Headers) > 0 {
			h := map[string]string{}
			for k, v := range ev.Request.Headers {
				h[k] = v
			}
			for k, v := range c.Headers {
				for old := range h {
					if equalFold(old, k) {
						delete(h, old)
					}
				}
				if v != "" {
					h[k] = v
				}
			}
			p["headers"] = headerList(h)
		}
		return conn.Call(ctx, "Fetch.continueRequest", p, nil)
	case s.HAR != nil:
		e := s.HAR.Lookup(ev.Request.Method, ev.Request.URL, ev.Request.PostData)
		if e == nil {
			if s.NotFound == "fallback" {
				return cont()
			}
			return conn.Call(ctx, "Fetch.failRequest", map[string]any{"requestId": ev.RequestID, "errorReason": "Failed"}, nil)
		}
		return fulfil(ctx, conn, ev.RequestID, e.Status, e.StatusText, e.Headers, e.Body)
	}
	h := map[string]string{}
	for k, v := range s.Headers {
		h[k] = v
	}
	if s.ContentType != "" {
		h["Content-Type"] = s.ContentType
	}
	status := s.Status
	if status == 0 {
		status = 200
	}
	return fulfil(ctx, conn, ev.RequestID, status, "", h, s.Body)
}

type caller interface {
	Call(ctx context.Context, method string, params, result any) error
}

func fulfil(ctx context.Context, conn caller, id string, status int, phrase string, h map[string]string, body []byte) error {
	p := map[string]any{"requestId": id, "responseCode": status, "responseHeaders": headerList(h), "body": base64.StdEncoding.EncodeToString(body)}
	if phrase != "" {
		p["responsePhrase"] = phrase
	}
	if err := conn.Call(ctx, "Fetch.fulfillRequest", p, nil); err != nil {
		return errs.Wrap(errs.CDPDisconnected, err, "fulfil a stubbed request")
	}
	return nil
}
