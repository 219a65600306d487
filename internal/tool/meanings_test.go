package tool

// fieldMeanings is the "Parameter and field meanings" section of
// docs/tools.md: one meaning per name across every tool (issue 11).
const fieldMeanings = "## Parameter and field meanings\n\n" +
	"A name means the same in every tool that has it.\n\n" +
	"### `timeoutMs` (parameter)\n\n" +
	"The most time, in milliseconds, the tool may spend waiting for what it waits for. Absent means\n" +
	"the tool's default. What `0` means depends on whether the tool is a wait (below): a wait or\n" +
	"expectation checks once; every other tool treats `0` as absent and uses its default. A value\n" +
	"outside the range is `BAD_ARGUMENT` naming `timeoutMs`. Every call is also bounded by the\n" +
	"server's backstop (`--operation-timeout-ms`, `OPERATION_TIMEOUT`).\n\n" +
	"| tools | waits for | default | max | `0` means |\n|---|---|---|---|---|\n" +
	"| actions (`electron_click`, `_hover`, `_check`, `_uncheck`, `_type`, `_clear_input`, `_select_option`, `_drag`, `_set_files`, `_drop_file`, `_scroll`, `_scroll_into_view`, `_key`, `_keyboard_type`, `_press_sequence`, `_type_into_editor`) | the element to become actionable (visible, stable, enabled, uncovered; for keys: the element to focus, when one is named) | 5000 | 30000 | the default (5000) |\n" +
	"| waits and expectations (`electron_wait_for_*`, `electron_expect_*`) | the condition | 5000 | 60000 | check once, now |\n" +
	"| `electron_navigate` | the `waitUntil` event (load or domcontentloaded) | 30000 | 120000 | the default (30000) |\n" +
	"| `electron_launch` | the DevTools endpoint (`readyTimeoutMs`: a ready renderer, default 15000) | 30000 | 300000 | the default |\n" +
	"| `electron_attach` | the endpoint's answer | 10000 | none | the default |\n" +
	"| `electron_stop` | each step before escalating (Browser.close, SIGTERM, SIGKILL) | 10000 | 120000 | the default |\n" +
	"| `electron_discover_running` | each port | 750 | 10000 | the default |\n" +
	"| `electron_eval_renderer`, `electron_eval_main` | the code to finish (`EVAL_TIMEOUT`) | 10000 | 60000 | the default |\n" +
	"| `electron_inject` | the inspector to open | 5000 | 60000 | the default |\n\n" +
	"When it runs out: actions fail with the last reason seen (`ELEMENT_NOT_VISIBLE`,\n" +
	"`SELECTOR_NO_MATCH`, `ELEMENT_DISABLED`), waits with `WAIT_TIMEOUT`, expectations with\n" +
	"`EXPECTATION_FAILED`, navigate with `WAIT_TIMEOUT`, launch with `LAUNCH_TIMEOUT`.\n\n" +
	"### `changed` (result field)\n\n" +
	"A boolean: `true` when the tool changed the element's value or state (`electron_type`,\n" +
	"`electron_clear_input`, `electron_check`, `electron_uncheck`, `electron_select_option`), `false` when it\n" +
	"was already so.\n" +
	"Absent when the tool could not verify it: the action opened a dialog (`dialog_opened` says which)\n" +
	"that blocks the page. Never a string. (`diff.changed` of `electron_snapshot` with `since:'last'`\n" +
	"is a different field: the list of entries whose role, name or state changed.)\n\n" +
	"### `covering` (error detail)\n\n" +
	"`details.covering` of `ELEMENT_NOT_VISIBLE` names the element that would get the pointer instead\n" +
	"of the target. It is always an object (Go: `page.Covering`), never a string:\n\n" +
	"| field | type | meaning |\n|---|---|---|\n" +
	"| `ref` | integer | the cover's ref in the active surface; `0` when the cover is in an enclosing document (refs never cross surfaces) |\n" +
	"| `role` | string | its ARIA role; `\"\"` when not known (enclosing documents) |\n" +
	"| `name` | string | its accessible name (in an enclosing document: its `aria-label` or `title`); absent when empty |\n" +
	"| `tag` | string | its lower-case tag name; `\"\"` when nothing is at the point (it lies outside the enclosing document) |\n" +
	"| `selector` | string | a CSS selector for it (`tag#id.class`) |\n" +
	"| `enclosing` | boolean | `true` when the cover lies in a document that holds the surface's frame (an overlay in the top page over an iframe); absent otherwise |\n\n" +
	"The error message names the cover in words as well.\n\n" +
	"### Result fields\n\n" +
	"Every tool has a full JSON Schema of its success envelope (`ok`, the fields listed under\n" +
	"\"Result\" for each tool above, `_meta`), embedded in the server; `tools/list` carries it as the\n" +
	"tool's MCP `outputSchema` when the server runs with `--output-schemas`, and carries none by default\n" +
	"(ADR-030). A failure is the failure envelope with `isError` (ADR-019). A result field name has one JSON type in every tool that returns it\n" +
	"(`TestResultFieldsHaveOneType`), except these, whose meaning is shared but whose shape follows the tool:\n\n" +
	"| field | types |\n|---|---|\n" +
	"| `actual` | the value an expectation checked: a string (text, value, URL), a boolean (visibility), an integer (count), an object (state flags; `{attached, visible}` for a selector wait) |\n" +
	"| `dropped` | a boolean in `electron_drag` and `electron_drop_file` (the drop happened); an integer in `electron_console_logs` (entries let go) |\n" +
	"| `endpoints` | a list of DevTools endpoints found (`electron_discover_running`); an object of the session's endpoint URLs (`electron_info`) |\n" +
	"| `pressed` | a string, the chord (`electron_key`); a list of chords (`electron_press_sequence`) |\n" +
	"| `verified` | a boolean in pointer actions (the event reached the element); a string in the text tools, as `match` (`exact`, `partial`, `ignoring white space`, `delivered`) |\n\n"
