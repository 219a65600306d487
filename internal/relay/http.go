package relay

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/cdp"
)

// serveHTTP is the relay's only handler: checks first, then the DevTools
// HTTP endpoints and the WebSocket upgrades.
func (r *Relay) serveHTTP(w http.ResponseWriter, req *http.Request) {
	tokenInQuery, ok := r.guard(w, req)
	if !ok {
		return
	}
	p := req.URL.Path
	switch {
	case p == "/json/version" || p == "/json/version/":
		r.serveVersion(w, req, tokenInQuery)
	case p == "/json" || p == "/json/" || p == "/json/list" || p == "/json/list/":
		r.serveList(w, req, tokenInQuery)
	case p == "/json/new" || p == "/json/new/":
		r.serveNew(w, req, tokenInQuery)
	case strings.HasPrefix(p, "/json/close/"):
		r.serveClose(w, req, strings.TrimPrefix(p, "/json/close/"))
	case strings.HasPrefix(p, "/json/activate/"):
		r.serveActivate(w, req, strings.TrimPrefix(p, "/json/activate/"))
	case p == "/json/protocol" || p == "/json/protocol/":
		r.serveForward(w, req, "/json/protocol")
	case strings.HasPrefix(p, "/devtools/browser/"):
		if strings.TrimPrefix(p, "/devtools/browser/") != r.browserID {
			http.Error(w, "relay: no such browser; get the address from /json/version", http.StatusNotFound)
			return
		}
		r.serveBrowserSocket(w, req)
	case strings.HasPrefix(p, "/devtools/page/"):
		r.serveTargetSocket(w, req, strings.TrimPrefix(p, "/devtools/page/"))
	default:
		http.NotFound(w, req)
	}
}

// guard applies the relay's request checks. It reports whether the token
// came in the query (so URLs handed out carry it too) and whether the
// request may go on; when not, it has answered.
//
//   - Host must be localhost or a loopback address (any port): a web page
//     that rebinds its DNS name to 127.0.0.1 sends its own name. With a
//     token, any IP address is accepted too (the token is the guard), and
//     Options.AllowHosts adds names.
//   - A request with an Origin header comes from a web page: refused. So is
//     one whose Sec-Fetch-Site says another site started it.
//   - With a token, ?token= or Authorization: Bearer must match.
func (r *Relay) guard(w http.ResponseWriter, req *http.Request) (tokenInQuery, ok bool) {
	if !r.hostAllowed(req.Host) {
		http.Error(w, "relay: Host header must be localhost or a loopback address", http.StatusForbidden)
		return false, false
	}
	if req.Header.Get("Origin") != "" {
		http.Error(w, "relay: requests from web pages (with an Origin header) are refused", http.StatusForbidden)
		return false, false
	}
	if s := req.Header.Get("Sec-Fetch-Site"); s != "" && s != "none" && s != "same-origin" {
		http.Error(w, "relay: requests started by web pages are refused", http.StatusForbidden)
		return false, false
	}
	if r.opts.Token == "" {
		return false, true
	}
	if q := req.URL.Query().Get("token"); q != "" && tokenEqual(q, r.opts.Token) {
		return true, true
	}
	if a := req.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") && tokenEqual(strings.TrimSpace(a[7:]), r.opts.Token) {
		return false, true
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="understudy relay"`)
	http.Error(w, "relay: a token is required (?token=T or Authorization: Bearer T)", http.StatusUnauthorized)
	return false, false
}

func tokenEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

func (r *Relay) hostAllowed(hostport string) bool {
	if hostport == "" {
		return false
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if browser.IsLoopbackHost(host) {
		return true
	}
	if r.opts.Token != "" {
		if ip, err := netip.ParseAddr(host); err == nil && ip.Zone() == "" {
			return true
		}
	}
	for _, a := range r.opts.AllowHosts {
		if strings.EqualFold(strings.TrimSuffix(host, "."), strings.TrimSuffix(a, ".")) {
			return true
		}
	}
	return false
}

// wsBase is ws://<the Host the client used> for URLs handed to it.
func (r *Relay) wsBase(req *http.Request) string { return "ws://" + req.Host }

func (r *Relay) withToken(u string, tokenInQuery bool) string {
	if !tokenInQuery {
		return u
	}
	return u + "?token=" + url.QueryEscape(r.opts.Token)
}

func writeJSON(w http.ResponseWriter, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "   ")
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_, _ = w.Write(buf.Bytes())
}

func (r *Relay) serveVersion(w http.ResponseWriter, req *http.Request, tokenInQuery bool) {
	v := make(map[string]any, len(r.versionJSON))
	for k, x := range r.versionJSON {
		v[k] = x
	}
	v["webSocketDebuggerUrl"] = r.withToken(r.wsBase(req)+"/devtools/browser/"+r.browserID, tokenInQuery)
	writeJSON(w, v)
}

// relabelListEntry makes one /json/list entry the relay's: webviews are
// pages, sockets point at the relay, the DevTools front-end links (which
// point at the upstream) go. It reports false for entries to hide.
func (r *Relay) relabelListEntry(t map[string]any, req *http.Request, tokenInQuery bool) bool {
	typ, _ := t["type"].(string)
	if hiddenType(typ) {
		return false
	}
	if typ == "webview" {
		t["type"] = "page"
		delete(t, "parentId")
	}
	id, _ := t["id"].(string)
	if id != "" {
		t["webSocketDebuggerUrl"] = r.withToken(r.wsBase(req)+"/devtools/page/"+id, tokenInQuery)
	}
	delete(t, "devtoolsFrontendUrl")
	delete(t, "devtoolsFrontendUrlCompat")
	return true
}

func decodeJSONNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

func (r *Relay) serveList(w http.ResponseWriter, req *http.Request, tokenInQuery bool) {
	body, status, err := r.upstreamHTTP(req.Context(), http.MethodGet, "/json/list")
	if err != nil || status != http.StatusOK {
		http.Error(w, "relay: the upstream did not list its targets", http.StatusBadGateway)
		return
	}
	var list []map[string]any
	if err := decodeJSONNumbers(body, &list); err != nil {
		http.Error(w, "relay: the upstream's /json/list is not JSON", http.StatusBadGateway)
		return
	}
	out := make([]map[string]any, 0, len(list))
	for _, t := range list {
		if r.relabelListEntry(t, req, tokenInQuery) {
			out = append(out, t)
		}
	}
	writeJSON(w, out)
}

func (r *Relay) serveNew(w http.ResponseWriter, req *http.Request, tokenInQuery bool) {
	if req.Method != http.MethodPut {
		w.Header().Set("Allow", http.MethodPut)
		http.Error(w, "Using unsafe HTTP verb "+req.Method+" to invoke /json/new. This action supports only PUT verb.", http.StatusMethodNotAllowed)
		return
	}
	pq := "/json/new"
	if req.URL.RawQuery != "" {
		pq += "?" + stripToken(req.URL.RawQuery)
	}
	// Chromium opens the query unescaped, leniently: a "%" without two hex
	// digits stays as it is, so "%zz" before an escaped "chrome:" left the
	// URL undecodable for Go and chrome://settings for Chromium. What does
	// not decode is refused; what does is judged as Target.createTarget's
	// URL (one decoding, as Chromium does, then the URL Standard's reading).
	target, ok := unescapeQuery(stripToken(req.URL.RawQuery))
	if !ok {
		http.Error(w, "relay: /json/new of "+quoteURL(req.URL.RawQuery)+" is refused: a \"%\" that is not followed by two hex digits", http.StatusBadRequest)
		return
	}
	if why := openedURL(target, r.fileURL()); why != "" {
		http.Error(w, "relay: /json/new of "+quoteURL(target)+" is refused: "+why, http.StatusForbidden)
		return
	}
	body, status, err := r.upstreamHTTP(req.Context(), http.MethodPut, pq)
	if err != nil {
		http.Error(w, "relay: "+err.Error(), http.StatusBadGateway)
		return
	}
	var t map[string]any
	if status != http.StatusOK || decodeJSONNumbers(body, &t) != nil {
		w.WriteHeader(status)
		_, _ = w.Write(body)
		return
	}
	if id, _ := t["id"].(string); id != "" {
		r.httpMu.Lock()
		r.httpCreated[id] = true
		r.httpMu.Unlock()
	}
	r.relabelListEntry(t, req, tokenInQuery)
	writeJSON(w, t)
}

// unescapeQuery decodes every %XX of a /json/new query once, as Chromium
// does ("+" stays "+"); it reports false when a "%" is not followed by two
// hex digits, which Chromium would leave undecoded.
func unescapeQuery(q string) (string, bool) {
	if !strings.Contains(q, "%") {
		return q, true
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] != '%' {
			b.WriteByte(q[i])
			continue
		}
		if i+2 >= len(q) || !isHex(q[i+1]) || !isHex(q[i+2]) {
			return "", false
		}
		b.WriteByte(unhex(q[i+1])<<4 | unhex(q[i+2]))
		i += 2
	}
	return b.String(), true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// stripToken removes token=… from a raw query (the rest is a URL that
// /json/new opens, passed on as it came).
func stripToken(raw string) string {
	if !strings.Contains(raw, "token=") {
		return raw
	}
	parts := strings.Split(raw, "&")
	kept := parts[:0]
	for _, p := range parts {
		if !strings.HasPrefix(p, "token=") {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "&")
}

func validTargetID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func (r *Relay) serveClose(w http.ResponseWriter, req *http.Request, id string) {
	if !validTargetID(id) {
		http.Error(w, "relay: bad target id", http.StatusBadRequest)
		return
	}
	r.httpMu.Lock()
	allowed := r.opts.AllowBrowserClose || r.httpCreated[id]
	r.httpMu.Unlock()
	if !allowed {
		http.Error(w, "relay: /json/close is allowed only for targets opened with /json/new through the relay", http.StatusForbidden)
		return
	}
	r.serveForward(w, req, "/json/close/"+id)
}

func (r *Relay) serveActivate(w http.ResponseWriter, req *http.Request, id string) {
	if !validTargetID(id) {
		http.Error(w, "relay: bad target id", http.StatusBadRequest)
		return
	}
	r.serveForward(w, req, "/json/activate/"+id)
}

func (r *Relay) serveForward(w http.ResponseWriter, req *http.Request, path string) {
	method := http.MethodGet
	if req.Method == http.MethodPut {
		method = http.MethodPut
	}
	body, status, err := r.upstreamHTTP(req.Context(), method, path)
	if err != nil {
		http.Error(w, "relay: "+err.Error(), http.StatusBadGateway)
		return
	}
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) || bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// serveBrowserSocket serves one client of the browser endpoint until it
// goes.
func (r *Relay) serveBrowserSocket(w http.ResponseWriter, req *http.Request) {
	if !r.track() {
		http.Error(w, "relay: shutting down", http.StatusServiceUnavailable)
		return
	}
	defer r.conns.Done()
	dctx, cancel := context.WithTimeout(req.Context(), r.callTimeout)
	root, err := dialUpstream(dctx, r.wsClient, r.upstreamWS)
	cancel()
	if err != nil {
		http.Error(w, "relay: the upstream browser does not answer: "+err.Error(), http.StatusBadGateway)
		return
	}
	ws, ok := acceptClient(w, req, root)
	if !ok {
		return
	}
	c := newClient(r, ws, root)
	reply := make(chan hubSnapshot, 1)
	var snap hubSnapshot
	if r.hub.send(r.ctx, hubRegister{c: c, reply: reply}) {
		select {
		case snap = <-reply:
		case <-r.ctx.Done():
			snap.lost = true
		}
	} else {
		snap.lost = true
	}
	if snap.lost {
		root.closeNow()
		closeGracefully(ws, websocket.StatusInternalError, "relay: upstream browser closed", time.Second)
		return
	}
	c.load(snap)
	r.stats.clients.Add(1)
	r.log.Info("relay: client connected", "client", c.id, "remote", req.RemoteAddr)
	c.run()
	r.stats.clients.Add(-1)
	r.hub.send(r.ctx, hubUnregister{c: c})
}

// serveTargetSocket serves a client of one target's own socket
// (/devtools/page/<id>): a tunnel to the target's upstream socket, which
// is the client's alone. Every command passes guardCommand: Browser.close
// closes the tunnel only, and no target may be closed through it, unless
// AllowBrowserClose.
func (r *Relay) serveTargetSocket(w http.ResponseWriter, req *http.Request, id string) {
	if !validTargetID(id) {
		http.Error(w, "relay: bad target id", http.StatusBadRequest)
		return
	}
	if !r.track() {
		http.Error(w, "relay: shutting down", http.StatusServiceUnavailable)
		return
	}
	defer r.conns.Done()
	dctx, cancel := context.WithTimeout(req.Context(), r.callTimeout)
	up, err := dialUpstream(dctx, r.wsClient, r.targetWSURL(id))
	cancel()
	if err != nil {
		http.Error(w, "relay: no such target, or the upstream does not answer: "+err.Error(), http.StatusNotFound)
		return
	}
	down, ok := acceptClient(w, req, up)
	if !ok {
		return
	}
	r.tunnel(id, down, up)
}

// acceptClient upgrades a client's request to a WebSocket for the upstream
// socket up, which it closes when the upgrade fails (Accept has answered
// then).
func acceptClient(w http.ResponseWriter, req *http.Request, up *upstream) (*websocket.Conn, bool) {
	ws, err := websocket.Accept(w, req, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		up.closeNow()
		return nil, false
	}
	ws.SetReadLimit(clientReadLimit)
	return ws, true
}

// tunnel runs the two copiers of a target socket until either side ends,
// then closes both.
func (r *Relay) tunnel(id string, down *websocket.Conn, up *upstream) {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	errc := make(chan error, 2)
	go func() { errc <- r.copyClientToTarget(ctx, id, down, up.ws) }()
	go func() { errc <- copyTargetToClient(ctx, up.ws, down) }()
	<-errc
	cancel()
	_ = down.CloseNow()
	up.closeNow()
	<-errc
}

func (r *Relay) copyClientToTarget(ctx context.Context, target string, down, up *websocket.Conn) error {
	for {
		typ, b, err := down.Read(ctx)
		if err != nil {
			return err
		}
		env, err := cdp.ScanEnvelope(b)
		if err != nil {
			// What the relay cannot read is not forwarded: Chromium might
			// read it otherwise than the guard would (as the browser socket
			// does, answered with Chromium's own wording).
			code := codeInvalidRequest
			if errors.Is(err, cdp.ErrEnvelopeJSON) {
				code = codeParseError
			}
			if err := down.Write(ctx, websocket.MessageText, replyError(env.ID, env.SessionID, code, err.Error())); err != nil {
				return err
			}
			continue
		}
		kind := sockPage
		if env.SessionID != "" {
			kind = sockSession
		}
		switch g := guardCommand(env.Method, env.Params, guardPolicy{allowClose: r.opts.AllowBrowserClose, ownTarget: target, kind: kind,
			allow: r.allow, fileURL: r.fileURL(), filePath: r.filePath()}); g.v {
		case closeConn:
			_ = down.Write(ctx, websocket.MessageText, replyResult(env.ID, env.SessionID, nil))
			closeGracefully(down, websocket.StatusNormalClosure, "relay: "+env.Method+" closed this connection only", time.Second)
			return errClosedByGuard
		case refuse:
			if err := down.Write(ctx, websocket.MessageText, replyError(env.ID, env.SessionID, codeServerError, g.msg)); err != nil {
				return err
			}
			continue
		}
		if err := up.Write(ctx, typ, b); err != nil {
			return err
		}
	}
}

func copyTargetToClient(ctx context.Context, up, down *websocket.Conn) error {
	for {
		typ, b, err := up.Read(ctx)
		if err != nil {
			return err
		}
		if err := down.Write(ctx, typ, b); err != nil {
			return err
		}
	}
}

// errClosedByGuard ends a tunnel whose client sent Browser.close.
var errClosedByGuard = errors.New("relay: the client closed its connection with Browser.close")
