// Package doctor is the non-mutating preflight that the doctor tool's
// handler and `understudy doctor` print: whether a browser is found and
// runs, the display, the eval policy, the app root, the file roots, free
// temporary space, the user and node. It changes nothing and launches
// nothing but `<browser> --version`.
package doctor
