// Package leakcheck finds goroutines that outlive the tests that started
// them. Every package whose code starts goroutines calls [Main] from its
// TestMain: after the tests it waits a little for the goroutines started
// since the package began to end, and fails the package, printing their
// stacks, when some are left. The runtime's and the testing package's own
// goroutines are not counted. [Left] is the same check narrowed to a
// filter, for a test's cleanup (the relay checks its own goroutines after
// each relay closes).
//
// It is test support: only _test.go files import it.
package leakcheck
