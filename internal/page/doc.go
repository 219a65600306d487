// Package page is what runs in a renderer for one surface: the embedded
// walker (roles and accessible names after WAI-ARIA 1.2, HTML-AAM and
// accname 1.2; states; boxes), snapshots with stable refs, diffs against a
// baseline, and element resolution and reads.
//
// Entry points: [NewStore] makes a [Store], which keeps one ref counter per
// surface. [Store.Snapshot] and [Store.Find] walk the surface's document,
// issue refs and move its baseline; [Store.Resolve] and the reads
// ([Store.GetText], [Store.GetState], …) act on a [Locator] (a ref or a
// CSS selector). Every call takes the [Frame] of one surface — a CDP
// session, an execution context, a surface id — and never touches another
// frame.
//
// The option types callers give as they are (a find's [FindQuery], the
// waits' and expectations' options, an eval's [EvalArgs] and its answer
// [EvalOut]) carry their JSON names and descriptions, which are the MCP
// tools' parameters, and check themselves, naming the field.
//
// The walker is JavaScript (js/*.js, one file per concern, concatenated and
// embedded). It installs itself once per document as a non-enumerable
// property of window under a Symbol.for key that names the build, and is
// installed again after a navigation; with it installed, every operation is
// one Runtime.evaluate. Refs live in the walker's registry (a WeakMap
// element → ref and a Map ref → WeakRef), never in the page's DOM, keyed by
// store and surface; the Go side keeps the counter (so a reloaded document
// goes on numbering and no number is ever reused), what each ref was (for
// similar_refs), and which document the refs belong to (to report
// renderer_reloaded).
//
// The text form is one line per entry — `[3] textbox "Email" value="" focused`
// — with non-default states only, and one line per table row or list item
// grouping its words and its controls —
// `row "Item 17 — owner Ada": [812] checkbox "Select Item 17" [813] button "Edit"` —
// so that repeated controls stay apart. Marks: ~ changed and + added since
// the baseline (on full snapshots and since:'last'), - removed (since only).
//
// The options the MCP tools give these operations are page's own types,
// with their JSON names and descriptions and a Check naming the field
// (docs/adr/045): the find and snapshot queries (FindQuery, SnapshotQuery),
// the waits' and expectations' (WaitBudget, SleepArgs, PresenceWant,
// StateWant, EventWant, VisibleWant, TextOperators, PatternQuery,
// CountQuery, URLQuery), the reads' (ListQuery, AttributeName, StyleQuery)
// and the setters' (SelectValues, ValueText); the reads answer in their
// result types (ExistsResult, TextResult, ValueResult…).
//
// The waits and expectations are whole operations too: [Store.WaitSelector],
// [Store.WaitState], [Store.WaitEvent], [Store.ExpectText] and the other
// Expect methods take a Locator and their option type (SelectorWait,
// StateWait, EventWait, TextExpectation, VisibleExpectation,
// CountExpectation, URLExpectation, PatternQuery), wait in the surface a
// [FrameFunc] resolves (again after a navigation) and answer their result
// (SelectorWaited, StateWaited, EventWaited, [Expected]) on the surface
// ([OnSurface], with the [Fallback] the frame came with), or WAIT_TIMEOUT /
// EXPECTATION_FAILED saying what was last seen. [Store.RunThen] runs an
// action's "then" ([ParseThen]); the Read methods ([Store.ReadText]…) and
// [Store.FindScrolling] answer the reads and the find.
package page
