// Package surface is the renderer-surface registry of one session
// (ADR-022/029): every page, webview guest, out-of-process iframe and
// in-process frame the session can drive, under opaque ids that survive
// navigation and a frame moving between in-process and OOPIF hosting.
//
// [New] builds a [Registry] on a [target.Pool]. [Registry.List] discovers
// the surfaces (/json/list plus one Page.getFrameTree per target) and returns
// them parent-first as [Descriptor]s; [Registry.Select] and
// [Registry.SelectWindow] choose the active surface; [Registry.Resolve] turns
// the active surface into a [Resolution]: the socket to evaluate on, the
// frame's default execution context, the input root that receives
// Input.dispatch* and the chain of frame owners whose content boxes
// [Resolution.Offset] sums; [Resolution.Reach] hit-tests the enclosing
// documents before pointer input (internal/input sends it).
// [Registry.Listing] and [Registry.Switch] answer the tools that list and
// select surfaces ([Listing], with the roots' kinds the app's main process
// gives [Listing.Classify]; [Switched] for a [SwitchArgs]), and
// [Registry.SnapshotAll] and [Registry.FindAll] the snapshot and the find of
// a window's every surface (surfaces:'all').
//
// State is kept current by events: Runtime.executionContext* and
// Page.frameAttached/Navigated/Detached on every pooled target socket, and
// the pool's target changes. Resolving therefore costs no CDP call when
// nothing changed; owner boxes are read once per pointer operation. Gone
// frames become tombstones (SURFACE_CLOSED), unknown ids are
// SURFACE_NOT_FOUND, and a frame id that comes back revives its record.
package surface
