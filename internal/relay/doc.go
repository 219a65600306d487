// Package relay is understudy's CDP relay: an HTTP and WebSocket endpoint on
// loopback that Playwright (chromium.connectOverCDP), Puppeteer
// (puppeteer.connect) and chromedp connect to as if it were the browser, in
// front of one real browser or Electron app that an agent may be driving at
// the same time.
//
// Entry points: [New] checks [Options] (the upstream [browser.Endpoint], the
// listen address, an optional token); [Relay.Start] connects upstream and
// listens, [Relay.HTTPURL] and [Relay.WSURL] are what clients take, and
// [Relay.Close] ends it (never the browser). [Relay.Serve] does Start, waits
// for its context and closes. [Opener] starts one for a session's life and
// [Relay.Shared] is what electron_relay_endpoint answers.
//
// How it works. The relay answers the browser-level protocol itself, so that
// every client sees one consistent browser: Browser.getVersion,
// Target.setAutoAttach (one Target.attachedToTarget per page, with its URL,
// before the reply, as Chromium does), Target.setDiscoverTargets,
// getTargets, getTargetInfo, attachToTarget, attachToBrowserTarget,
// detachFromTarget, createTarget and closeTarget. Each client session on a
// target is backed by the client's own WebSocket to that target's upstream
// endpoint, so enabled domains, Fetch interception, emulation, debugger state
// and scripts added to new documents belong to the client that set them, and
// closing the socket (when the client detaches or goes) is what makes the
// browser release them. Target-level Target.setAutoAttach passes through on
// that socket, so out-of-process iframes reach the client as child sessions
// with their real ids. Electron webview guests are shown as pages. A hub
// goroutine (hub.go) owns the table of targets, learned over the relay's own
// browser socket; each client's owner goroutine (client.go) owns that
// client's sessions, answers the protocol it emulates (commands.go) and
// attaches targets (attach.go); http.go serves the endpoints and checks
// every request, frame.go reads message envelopes without decoding them.
//
// An upstream that offers its browser WebSocket alone (Options.Flat: a
// Selenium Grid session's se:cdp) is reached through the bridge
// (bridge.go), which stands for Chromium's endpoint on an in-memory
// listener: each target socket the relay dials there is an upstream socket
// of its own with one flattened session on the target.
//
// Flow control (queue.go): each client has a bounded queue with a priority
// lane for replies and every event that must not be lost, and a bulk lane
// for Network.*, Log.* and Runtime.consoleAPICalled, which are dropped (and
// counted, see [Relay.Stats]) while the client is over Options.QueueLimit; a
// client four times over it is disconnected with close status 1008.
//
// Security: loopback by default; Host must be localhost or a loopback
// address (DNS rebinding); requests with an Origin header are refused;
// Options.Token is required off loopback. Every client command, on every
// path (browser socket, page sessions, child sessions, page tunnels),
// passes one guard (guard.go), by method: a client's Browser.close closes
// only its connection, Browser.crash* is refused, and it may close only the
// targets it created and popups the app opened while it was connected,
// unless Options.AllowBrowserClose (a refused close ends that client's view
// of the window, so no client waits for it; docs/adr/028); browser-acting URLs
// (chrome://quit, ...) are refused in Target.createTarget, Page.navigate and
// /json/new.
//
// docs/relay.md is the user's guide; compat/ holds the Playwright and
// Puppeteer scripts the tests run against a real Chromium.
package relay
