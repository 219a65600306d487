package tool

// fieldMeanings is the "Parameter and field meanings" section of
// docs/tools.md: one meaning per name across every tool (issue 11).
const fieldMeanings = "## Parameter and field meanings\n\n" +
	"A name means the same in every tool that has it.\n\n" +
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
	"The error message names the cover in words as well.\n\n"
