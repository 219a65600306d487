package grid

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// maxBody caps what we read of a grid's answer.
const maxBody = 4 << 20

// Client talks to one grid. The zero HTTP uses a client of its own that
// follows no redirect and no proxy from the environment.
type Client struct {
	// URL is the grid's address, http://HOST:4444 (no trailing slash).
	URL string
	// Header is added to every request (an auth token); never logged.
	Header http.Header
	// HTTP is the client to use; nil: a default one (TLS verified).
	HTTP *http.Client
}

// Session is a session the grid created.
type Session struct {
	ID string
	// CDPURL is the se:cdp capability: the browser's DevTools WebSocket,
	// proxied by the grid. Its host is the address the grid advertises.
	CDPURL         string
	BrowserName    string
	BrowserVersion string
	// Capabilities is what the grid answered, as it answered it.
	Capabilities json.RawMessage
}

func (c *Client) client() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{
		Transport:     &http.Transport{Proxy: nil, ForceAttemptHTTP2: false},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// NewSession creates a session with caps as alwaysMatch. It waits as long
// as ctx allows: the grid queues a request until a slot frees or its own
// session-request timeout passes (then GRID_NO_SLOT).
func (c *Client) NewSession(ctx context.Context, caps map[string]any) (Session, error) {
	body, err := json.Marshal(map[string]any{"capabilities": map[string]any{"alwaysMatch": caps}})
	if err != nil {
		return Session{}, errs.BadArg("capabilities", "cannot encode: %v", err)
	}
	var out struct {
		SessionID    string          `json:"sessionId"`
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if err := c.do(ctx, http.MethodPost, "/session", body, &out); err != nil {
		return Session{}, err
	}
	var cp struct {
		CDP            string `json:"se:cdp"`
		BrowserName    string `json:"browserName"`
		BrowserVersion string `json:"browserVersion"`
	}
	_ = json.Unmarshal(out.Capabilities, &cp)
	s := Session{ID: out.SessionID, CDPURL: cp.CDP, BrowserName: cp.BrowserName, BrowserVersion: cp.BrowserVersion, Capabilities: out.Capabilities}
	if s.ID == "" {
		return Session{}, errs.New(errs.GridSessionFailed, "the grid at %s answered POST /session without a sessionId", c.URL).With("grid", c.URL)
	}
	if s.CDPURL == "" {
		// A session we cannot drive is deleted at once.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = c.DeleteSession(dctx, s.ID)
		return Session{}, errs.New(errs.GridSessionFailed, "the grid's session names no se:cdp endpoint (browser %q): it needs a Chromium-based browser and Selenium 4's CDP support", s.BrowserName).With("grid", c.URL)
	}
	return s, nil
}

// DeleteSession ends a session; the grid frees its slot. A session the
// grid no longer knows is not an error.
func (c *Client) DeleteSession(ctx context.Context, id string) error {
	err := c.do(ctx, http.MethodDelete, "/session/"+id, nil, nil)
	if e := errs.As(err); e != nil && e.Details["w3c_error"] == "invalid session id" {
		return nil
	}
	return err
}

// w3cError is a WebDriver error answer.
type w3cError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.URL, "/")+path, rd)
	if err != nil {
		return errs.BadArg("grid", "bad grid URL %q: %v", c.URL, err)
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.client().Do(req)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return errs.Wrap(errs.GridNoSlot, err, fmt.Sprintf("the grid at %s did not answer %s %s in time", c.URL, method, path)).With("grid", c.URL)
		}
		return errs.Wrap(errs.GridUnreachable, err, "no grid answered at "+c.URL).With("grid", c.URL)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return errs.Wrap(errs.GridUnreachable, err, "reading the grid's answer").With("grid", c.URL)
	}
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return errs.New(errs.GridUnreachable, "%s %s at %s answered HTTP %d and no WebDriver JSON: is it a Selenium Grid?", method, path, c.URL, resp.StatusCode).With("grid", c.URL)
	}
	if resp.StatusCode >= 400 {
		var we w3cError
		_ = json.Unmarshal(env.Value, &we)
		return gridError(c.URL, method+" "+path, resp.StatusCode, we)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Value, out); err != nil {
		return errs.New(errs.GridSessionFailed, "the grid's answer to %s %s is not what WebDriver says: %v", method, path, err).With("grid", c.URL)
	}
	return nil
}

// gridError turns a WebDriver error into a coded error with the grid's
// message: a request that timed out waiting for a slot is GRID_NO_SLOT,
// anything else GRID_SESSION_FAILED.
func gridError(grid, what string, status int, we w3cError) error {
	msg := we.Message
	for _, tail := range []string{"\nHost info:", "\nBuild info:", "\nSystem info:"} {
		if i := strings.Index(msg, tail); i > 0 {
			msg = msg[:i] // the grid appends host, build and system details
		}
	}
	if len(msg) > 2000 {
		msg = msg[:2000] + "…"
	}
	code := errs.GridSessionFailed
	low := strings.ToLower(msg)
	if we.Error == "session not created" && (strings.Contains(low, "timed out") || strings.Contains(low, "timeout")) &&
		!strings.Contains(low, "driver") {
		code = errs.GridNoSlot
	}
	e := errs.New(code, "the grid refused %s (HTTP %d, %s): %s", what, status, cmpOr(we.Error, "no error name"), cmpOr(msg, "no message")).
		With("grid", grid).With("w3c_error", we.Error)
	return e
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
