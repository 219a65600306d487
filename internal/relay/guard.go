package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// The one guard every command of a client passes before it can reach the
// browser, on every path a command can take: the browser socket, relay
// sessions on pages (flat sessions attached through the browser socket),
// real child sessions (OOPIFs, workers, anything a target socket attached)
// and page tunnels (/devtools/page/<id>). It decides by method (and, for
// the two commands that open a URL, by that URL), never by the socket the
// command came on: Chromium accepts Browser.close on a page's own socket
// as readily as on the browser's.

// verdict is what the guard makes of one command.
type verdict int

const (
	pass      verdict = iota // forward (or handle) as usual
	closeConn                // answer {} and close this client's connection only
	refuse                   // answer a CDP error with ruling.msg
)

type ruling struct {
	v   verdict
	msg string
	// closeView: for a refused Target.closeTarget, the targets the client
	// asked to close; the client closes its own view of them
	// (client.closeView) so that no client waits for a close forever
	// (Playwright's page.close() ignores the error and waits).
	closeView []string
}

// guardPolicy is what the guard needs to know about the path.
type guardPolicy struct {
	allowClose bool // Options.AllowBrowserClose
	// mayClose reports whether the client may close the target (it created
	// it); nil: no target may be closed on this path.
	mayClose func(targetID string) bool
	// ownTarget is the target of the session the command came on (for
	// Page.close and Page.crash); empty on browser sessions.
	ownTarget string
	// kind is the socket kind the command came on.
	kind sockKind
	// allow is the operator's allowlist (Options.Allow).
	allow map[string]bool
	// fileURL judges a file: URL against the operator's file roots; nil:
	// every file: URL is refused.
	fileURL func(raw string) error
	// filePath judges a host path a command hands the page (an upload)
	// against the operator's file roots, symlinks resolved; nil: every
	// path is refused.
	filePath func(path string) error
	// ctxOf tells whose a browser context is; nil: no browser context rule
	// on this path (page tunnels, which have no browser-level methods).
	ctxOf func(id string) ctxOwner
}

// ctxOwner is whose a browser context is, seen from one client.
type ctxOwner int

const (
	ctxNobody  ctxOwner = iota // the app's (or one the relay did not see created)
	ctxMine                    // this client created it
	ctxAnother                 // another client of the relay created it
)

// sockKind is the kind of socket (or session) a command came on; each has
// its own allowlist (allow.go).
type sockKind int

const (
	sockBrowser sockKind = iota // the browser socket and Target.attachToBrowserTarget sessions
	sockPage                    // a page tunnel (/devtools/page/<id>), commands without a sessionId
	sockSession                 // a flattened session: on a page, a tab, or a child of either
)

func (k sockKind) String() string {
	switch k {
	case sockBrowser:
		return "browser"
	case sockPage:
		return "page"
	}
	return "session"
}

// recordMethod, when set (by the tests, UNDERSTUDY_RELAY_RECORD), sees every
// command the guard rules on: how the allowlist was recorded.
var recordMethod func(kind sockKind, method string)

// guardCommand rules on one command. It does not decode anything but the
// params of the few commands it looks into. The rules that end or crash
// the browser and close windows come first (they answer as they always
// did: Browser.close closes the connection); then the URL, crash, download
// and browser-context rules; then the allowlist of the socket kind
// (allow.go), which the operator widens with Options.Allow.
func guardCommand(method string, params []byte, p guardPolicy) ruling {
	if recordMethod != nil {
		recordMethod(p.kind, method)
	}
	switch method {
	case "Browser.close":
		if p.allowClose {
			return ruling{}
		}
		return ruling{v: closeConn}
	case "Browser.crash", "Browser.crashGpuProcess":
		if p.allowClose {
			return ruling{}
		}
		return ruling{v: refuse, msg: "relay: " + method + " is not allowed (the relay runs without --allow-browser-close)"}
	case "Target.sendMessageToTarget":
		// A non-flat session would carry commands the guard cannot see.
		return ruling{v: refuse, msg: "relay: Target.sendMessageToTarget is not supported; use flat sessions (flatten:true)"}
	case "Target.closeTarget", "Page.close":
		if p.allowClose {
			return ruling{}
		}
		ids := []string{p.ownTarget}
		if method == "Target.closeTarget" {
			var err error
			if ids, err = paramStrings(params, "targetId"); err != nil {
				return ruling{v: refuse, msg: "relay: " + method + " with params the relay cannot read is refused"}
			}
		}
		ok := p.mayClose != nil && len(ids) > 0
		for _, id := range ids {
			ok = ok && id != "" && p.mayClose(id)
		}
		if ok {
			return ruling{}
		}
		if p.mayClose == nil {
			return ruling{v: refuse, msg: "relay: " + method + " is not allowed on a target's own socket; close targets on the browser socket"}
		}
		if method == "Page.close" {
			// No client waits for a close after Page.close: the error is enough.
			return ruling{v: refuse, msg: "relay: Page.close is allowed only on targets this client created and popups the app opened while it was connected"}
		}
		return ruling{v: refuse, closeView: ids,
			msg: "relay: Target.closeTarget is allowed only on targets this client created and popups the app opened while it was connected; " +
				"the app's window stays open and this connection no longer sees it"}
	case "DOM.setFileInputFiles", "Input.dispatchDragEvent":
		// Both hand host files to the page: an upload, a drop.
		if operatorAllows(p.allow, method) {
			break
		}
		paths, err := paramFiles(params, method == "Input.dispatchDragEvent")
		if err != nil {
			return ruling{v: refuse, msg: "relay: " + method + " with params the relay cannot read is refused"}
		}
		for _, f := range paths {
			if why := hostFile(f, p.filePath); why != "" {
				return ruling{v: refuse, msg: "relay: " + method + " with the file " + quoteURL(f) + " is refused: " + why + "; " + allowHint(method)}
			}
		}
	case "Target.createTarget", "Page.navigate", "Network.loadNetworkResource":
		urls, err := paramStrings(params, "url")
		if err != nil {
			return ruling{v: refuse, msg: "relay: " + method + " with params the relay cannot read is refused"}
		}
		for _, u := range urls {
			if why := openedURL(u, p.fileURL); why != "" {
				return ruling{v: refuse, msg: "relay: " + method + " to " + quoteURL(u) + " is refused: " + why}
			}
		}
	case "Tracing.start":
		// A Perfetto config or the system backend hands the trace to a
		// tracing service that can be told to write files on the host;
		// Playwright's and Puppeteer's tracing send categories or a
		// traceConfig and read the trace back as a stream.
		if operatorAllows(p.allow, method) {
			break
		}
		perfetto, err := paramRaw(params, "perfettoConfig")
		if err != nil {
			return ruling{v: refuse, msg: "relay: " + method + " with params the relay cannot read is refused"}
		}
		backends, _ := paramStrings(params, "tracingBackend")
		for _, b := range backends {
			if b != "auto" && b != "chrome" {
				return ruling{v: refuse, msg: "relay: Tracing.start with tracingBackend " + quoteURL(b) + " is refused (the system tracing service can write files on the host); " + allowHint(method)}
			}
		}
		for _, c := range perfetto {
			if s := strings.TrimSpace(string(c)); s != "null" && s != `""` {
				return ruling{v: refuse, msg: "relay: Tracing.start with a perfettoConfig is refused (a Perfetto config can ask for files on the host); use categories or traceConfig, or " + allowHint(method)}
			}
		}
	case "Page.crash":
		// A renderer the client did not open is the app's (or another
		// client's): crashing it ends what they see.
		if p.allowClose || operatorAllows(p.allow, method) || p.mayClose != nil && p.ownTarget != "" && p.mayClose(p.ownTarget) {
			break
		}
		return ruling{v: refuse, msg: "relay: Page.crash is allowed only on targets this client created and popups the app opened while it was connected; " + allowHint(method)}
	case "Page.setDownloadBehavior":
		// The deprecated page-level twin of Browser.setDownloadBehavior,
		// which the relay confines to its downloads folder.
		if operatorAllows(p.allow, method) {
			break
		}
		behaviors, err := paramStrings(params, "behavior")
		if err != nil || len(behaviors) != 1 || behaviors[0] != "deny" && behaviors[0] != "default" {
			return ruling{v: refuse, msg: "relay: Page.setDownloadBehavior is refused except with behavior \"deny\" or \"default\"; use Browser.setDownloadBehavior (downloads go to the relay's downloads folder) or " + allowHint(method)}
		}
	}
	// Every method that names a browser context is on the browser list
	// only; the session lists have none.
	if p.ctxOf != nil && p.kind == sockBrowser {
		if r, ok := contextRule(method, params, p); !ok {
			return r
		}
	}
	if !allowed(p.kind, method) && !operatorAllows(p.allow, method) {
		return ruling{v: refuse, msg: "relay: " + method + " is not allowed on a " + p.kind.String() + " socket (the relay allows what Playwright, Puppeteer and chromedp send; docs/relay.md); " + allowHint(method)}
	}
	return ruling{}
}

// contextRule applies the browser-context rule: a client acts only in its
// own browser contexts and the app's, never in another client's; it
// disposes only its own. It reports false with the refusal.
func contextRule(method string, params []byte, p guardPolicy) (ruling, bool) {
	ids, err := paramStrings(params, "browserContextId")
	if err != nil {
		return ruling{v: refuse, msg: "relay: " + method + " with params the relay cannot read is refused"}, false
	}
	if method == "Target.disposeBrowserContext" {
		if len(ids) != 1 || p.ctxOf(ids[0]) != ctxMine {
			return ruling{v: refuse, msg: "relay: Target.disposeBrowserContext is allowed only on browser contexts this client created"}, false
		}
		return ruling{}, true
	}
	for _, id := range ids {
		if p.ctxOf(id) == ctxAnother {
			return ruling{v: refuse, msg: "relay: " + method + " in a browser context another client created is refused"}, false
		}
	}
	return ruling{}, true
}

// openedURL judges a URL a command asks the browser to open: it must
// parse as the URL Standard reads it, no layer of it may act on the
// browser (urlpolicy.Opened), and a file: layer must be under the
// operator's file roots (files.Roots.CheckURL, through fileURL).
func openedURL(raw string, fileURL func(string) error) string {
	u, why := urlpolicy.Opened(raw)
	if why != "" {
		return why
	}
	for _, l := range u.Layers() {
		if l.Scheme != "file" {
			continue
		}
		if fileURL == nil {
			return "file: URLs are opened only under the operator's file roots, and this relay has none"
		}
		if err := fileURL(l.String()); err != nil {
			return err.Error() + " (the operator's file roots: --file-root, --artifacts-dir, --allow-any-file)"
		}
	}
	return ""
}

// hostFile judges a path a command hands the page: it must be absolute
// and, with its symlinks resolved, under the operator's file roots (the
// check every tool uses, files.Roots.CheckRead).
func hostFile(path string, filePath func(string) error) string {
	if !filepath.IsAbs(path) {
		return "the path is not absolute"
	}
	if filePath == nil {
		return "files are handed to pages only from under the operator's file roots, and this relay has none"
	}
	if err := filePath(path); err != nil {
		return err.Error() + " (the operator's file roots: --file-root, --artifacts-dir, --allow-any-file)"
	}
	return ""
}

// paramFiles returns every path of the params' files member (any case,
// repeated ones included; in data for a drag event): a files member that
// is not an array of strings is an error, as is a data member that is not
// an object.
func paramFiles(params []byte, inData bool) ([]string, error) {
	if inData {
		var out []string
		datas, err := paramRaw(params, "data")
		if err != nil {
			return nil, err
		}
		for _, d := range datas {
			if string(d) == "null" {
				continue
			}
			f, err := paramFiles(d, false)
			if err != nil {
				return nil, err
			}
			out = append(out, f...)
		}
		return out, nil
	}
	raws, err := paramRaw(params, "files")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range raws {
		var list []string
		if err := json.Unmarshal(r, &list); err != nil && string(r) != "null" {
			return nil, err
		}
		out = append(out, list...)
	}
	return out, nil
}

// paramRaw returns the raw values of every member of the params object
// whose name is name, compared without case (see paramStrings).
func paramRaw(params []byte, name string) ([]json.RawMessage, error) {
	if len(bytes.TrimSpace(params)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("params is not a JSON object")
	}
	var out []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if strings.EqualFold(key, name) {
			out = append(out, v)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	return out, nil
}

// paramStrings returns the string values of every member of the params
// object whose name is name, compared without case, repeated ones
// included. The guard reads params this way, not by decoding into a
// struct: encoding/json matches names without case and keeps the last of
// repeated ones, while Chromium reads the exact name, so
// {"url":"chrome://quit/","URL":"about:blank"} would otherwise pass the
// guard as about:blank and quit the browser (found by FuzzRelayRouter).
// Absent params are no members; params that are not a JSON object are an
// error.
func paramStrings(params []byte, name string) ([]string, error) {
	raws, err := paramRaw(params, name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range raws {
		var str string
		if json.Unmarshal(v, &str) == nil {
			out = append(out, str)
		}
	}
	return out, nil
}

func quoteURL(u string) string {
	if len(u) > 200 {
		u = u[:200] + "…"
	}
	b, _ := json.Marshal(u)
	return string(b)
}
