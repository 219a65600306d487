// Package a11y runs accessibility audits in a renderer with the axe-core
// engine the operator supplies (--axe-core, UNDERSTUDY_AXE_CORE: the path
// of axe.min.js; this repository pins the npm package in engine/ and never
// ships its source). [Load] reads and checks the file; [Engine.Audit]
// injects it into one surface's document once (kept under a private
// global, the page's own window.axe restored), runs axe.run with validated
// rules, tags and include/exclude selectors, and returns bounded findings
// whose nodes carry refs of that surface (page.Store.RefsOf). [Engine.Run]
// is the a11y_audit tool's whole audit: one surface, or every surface of
// the active window merged ([Combined]), through the session's surfaces
// as internal/tool adapts them ([Surfaces]); the tool's arguments
// ([Request], with [Rules] and Check) and its [Report] are here too, and
// the [Cache] that keeps the engine a server loaded.
package a11y
