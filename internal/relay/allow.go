package relay

import "strings"

// The relay is default-deny (docs/adr/035): a command reaches the browser
// only when its method is on the allowlist of the socket kind it came on,
// or the operator allowed it (Options.Allow, `understudy relay
// --relay-allow METHOD`). Methods that can act on the browser, the host or
// another client are allowed with parameter rules (guard.go).
//
// How the lists were made (the recording is testdata/compat-methods.txt,
// and TestRecordedMethodsAllowed keeps every line of it allowed): a recorder in the guard
// (record_test.go, UNDERSTUDY_RELAY_RECORD=FILE) wrote the kind and method
// of every command while the relay-compat suites ran on Chromium 156
// (2026-12-07): TestPlaywright, TestPuppeteer, TestPlaywrightFlat,
// TestPuppeteerFlat, TestWebviewGuestCompat, TestUpstreamCrashCompat,
// TestTokenCompat (playwright-core 1.65.1 and puppeteer-core 24.43.1 from
// compat/package-lock.json), TestChromedp and TestChromedpWithToken
// (chromedp v0.23.1), then the whole package. Every method recorded from
// those suites is below (the refusal tests' methods were recorded apart
// and are not). Added by hand from the clients' sources, for their
// documented APIs the suites do not reach: browser contexts
// (Target.createBrowserContext, disposeBrowserContext,
// getBrowserContexts), cookies (Storage.setCookies, clearCookies),
// permissions (Browser.grantPermissions, resetPermissions, setPermission),
// windows (Browser.getWindowForTarget, getWindowBounds),
// Target.activateTarget, and the page-level domains a client works in,
// allowed whole where nothing in them acts beyond the client's own
// sessions or the page (the Page domain too, with rules for Page.crash,
// Page.close, Page.navigate and Page.setDownloadBehavior).

// browserMethods: the browser socket (and Target.attachToBrowserTarget
// sessions).
var browserMethods = setOf(
	// recorded
	"Browser.close", "Browser.getVersion", "Browser.setDownloadBehavior", "Storage.getCookies",
	"Target.attachToBrowserTarget", "Target.attachToTarget", "Target.closeTarget", "Target.createTarget",
	"Target.detachFromTarget", "Target.getBrowserContexts", "Target.getTargetInfo", "Target.getTargets",
	"Target.setAutoAttach", "Target.setDiscoverTargets",
	// the clients' documented APIs (see above)
	"Target.createBrowserContext", "Target.disposeBrowserContext", "Target.activateTarget",
	"Storage.setCookies", "Storage.clearCookies",
	"Browser.grantPermissions", "Browser.resetPermissions", "Browser.setPermission",
	"Browser.getWindowForTarget", "Browser.getWindowBounds",
	"Runtime.runIfWaitingForDebugger",
)

// sessionMethods: a flattened session on a page, a tab or a child target
// (OOPIF, worker), and a page tunnel (/devtools/page/<id>). Target
// methods here act on the target's own child sessions.
var sessionMethods = setOf(
	// recorded
	"Target.getTargetInfo", "Target.setAutoAttach", "Target.setDiscoverTargets",
	"Runtime.runIfWaitingForDebugger",
	// page-level Target methods on a target's own socket
	"Target.attachToTarget", "Target.detachFromTarget",
	// the Browser methods a page session may read
	"Browser.getVersion",
	// Storage on a page: reading its own usage and keys, not clearing an origin
	"Storage.getStorageKey", "Storage.getUsageAndQuota",
)

// sessionDomains are allowed whole on sessions and page tunnels. Every
// method recorded on a session falls in one of them (Audits, CSS, DOM,
// Debugger, Emulation, Fetch, Input, Inspector, Log, Network, Page,
// Performance, Runtime, WebMCP).
var sessionDomains = setOf(
	"Accessibility", "Animation", "Audits", "Autofill", "CSS", "CacheStorage", "Console", "DOM",
	"DOMDebugger", "DOMSnapshot", "DOMStorage", "Debugger", "DeviceOrientation", "Emulation",
	"EventBreakpoints", "Fetch", "HeadlessExperimental", "HeapProfiler", "IO", "IndexedDB", "Input",
	"Inspector", "LayerTree", "Log", "Media", "Memory", "Network", "Overlay", "Page", "Performance",
	"PerformanceTimeline", "Profiler", "Runtime", "Schema", "Security", "Tracing", "WebAudio",
	"WebAuthn", "WebMCP",
)

// browserDomains are allowed whole on the browser socket: the stream and
// trace reading of Playwright's browser.startTracing.
var browserDomains = setOf("IO", "Tracing")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// allowed reports whether method is on the allowlist of kind.
func allowed(kind sockKind, method string) bool {
	domain, _, _ := strings.Cut(method, ".")
	if kind == sockBrowser {
		return browserMethods[method] || browserDomains[domain]
	}
	return sessionMethods[method] || sessionDomains[domain]
}

// operatorAllows reports whether the operator's list (Options.Allow:
// methods, or Domain.* for a whole domain) names method.
func operatorAllows(list map[string]bool, method string) bool {
	if list[method] {
		return true
	}
	domain, _, _ := strings.Cut(method, ".")
	return list[domain+".*"]
}

// allowHint is how a refusal names the operator's switch.
func allowHint(method string) string {
	return "the operator can allow it with `understudy relay --relay-allow " + method + "` (relay.Options.Allow)"
}
