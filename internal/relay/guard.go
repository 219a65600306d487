package relay

import (
	"bytes"
	"encoding/json"
	"errors"
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
	// Page.close); empty on browser sessions.
	ownTarget string
}

// guardCommand rules on one command. It does not decode anything but the
// params of the few commands it looks into.
func guardCommand(method string, params []byte, p guardPolicy) ruling {
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
	case "Target.createTarget", "Page.navigate":
		urls, err := paramStrings(params, "url")
		if err != nil {
			return ruling{v: refuse, msg: "relay: " + method + " with params the relay cannot read is refused"}
		}
		for _, u := range urls {
			if why := urlpolicy.BrowserActing(u); why != "" {
				return ruling{v: refuse, msg: "relay: " + method + " to " + quoteURL(u) + " is refused: " + why}
			}
		}
	}
	return ruling{}
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
	if len(bytes.TrimSpace(params)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("params is not a JSON object")
	}
	var out []string
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
		if !strings.EqualFold(key, name) {
			continue
		}
		var str string
		if json.Unmarshal(v, &str) == nil {
			out = append(out, str)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
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
