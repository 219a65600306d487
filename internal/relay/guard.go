package relay

import (
	"encoding/json"

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
		return ruling{refuse, "relay: " + method + " is not allowed (the relay runs without --allow-browser-close)"}
	case "Target.sendMessageToTarget":
		// A non-flat session would carry commands the guard cannot see.
		return ruling{refuse, "relay: Target.sendMessageToTarget is not supported; use flat sessions (flatten:true)"}
	case "Target.closeTarget", "Page.close":
		if p.allowClose {
			return ruling{}
		}
		id := p.ownTarget
		if method == "Target.closeTarget" {
			var q struct {
				TargetID string `json:"targetId"`
			}
			_ = decodeParams(params, &q)
			id = q.TargetID
		}
		if p.mayClose != nil && id != "" && p.mayClose(id) {
			return ruling{}
		}
		return ruling{refuse, "relay: " + method + " is allowed only on targets this client created"}
	case "Target.createTarget", "Page.navigate":
		var q struct {
			URL string `json:"url"`
		}
		if err := decodeParams(params, &q); err != nil {
			return ruling{} // the browser answers what it cannot read
		}
		if why := urlpolicy.BrowserActing(q.URL); why != "" {
			return ruling{refuse, "relay: " + method + " to " + quoteURL(q.URL) + " is refused: " + why}
		}
	}
	return ruling{}
}

func quoteURL(u string) string {
	if len(u) > 200 {
		u = u[:200] + "…"
	}
	b, _ := json.Marshal(u)
	return string(b)
}
