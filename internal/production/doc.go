// Package production inspects a packaged Electron app on disk without
// running it: the Electron fuse wire in its binary (found by the fuse
// sentinel), its app.asar (header, file list, unpacked files, per-file
// SHA-256 integrity), the Electron and Chromium versions it names, literal
// webPreferences in its main bundle, and what the fuses say about the
// debugging switches understudy launches with (--inspect, SIGUSR1,
// --remote-debugging-port). Everything is read in bounded chunks; an
// archive is never read whole. It is pure Go: no Node, no platform tools.
// [Request] (with Check) is production_validate's arguments.
package production
