// Package clock is one fake clock across every document of a session:
// a small timer library (clock.js) replaces Date, performance.now,
// setTimeout/setInterval, requestAnimationFrame and requestIdleCallback in
// each document (now, and in later documents of the same targets through
// Page.addScriptToEvaluateOnNewDocument), and Clock moves all of them as
// one: an advance fires the due timers of all targets in due order, by
// asking each target for its next due time and letting the earliest run
// up to the next one of any other target. The clock tools' arguments (with
// their JSON names, descriptions and Check), their Result and the Clock
// operations that answer them are in ops.go; internal/tool embeds the
// arguments and returns the Result.
package clock
