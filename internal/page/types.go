package page

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Rect is a box in CSS pixels.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Viewport is the frame's layout viewport and scroll position.
type Viewport struct {
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	ScrollX float64 `json:"scroll_x"`
	ScrollY float64 `json:"scroll_y"`
}

// Tri is a tri-state: false, true or mixed. It is JSON false, true or
// "mixed".
type Tri int8

// The values of a Tri.
const (
	False Tri = iota
	True
	Mixed
)

// MarshalJSON implements json.Marshaler.
func (t Tri) MarshalJSON() ([]byte, error) {
	switch t {
	case True:
		return []byte("true"), nil
	case Mixed:
		return []byte(`"mixed"`), nil
	}
	return []byte("false"), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *Tri) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "true", `"true"`:
		*t = True
	case "false", `"false"`, "null":
		*t = False
	case `"mixed"`:
		*t = Mixed
	default:
		return fmt.Errorf("page: bad tri-state %s", b)
	}
	return nil
}

// State holds an entry's states that differ from the default; absent
// fields are default (enabled, unchecked, not selected, …). Expanded and
// Pressed are present whenever the element expands or toggles.
type State struct {
	Disabled bool  `json:"disabled,omitempty"`
	Checked  Tri   `json:"checked,omitempty"`
	Selected bool  `json:"selected,omitempty"`
	Expanded *bool `json:"expanded,omitempty"`
	Pressed  *Tri  `json:"pressed,omitempty"`
	Focused  bool  `json:"focused,omitempty"`
	Readonly bool  `json:"readonly,omitempty"`
	Required bool  `json:"required,omitempty"`
	Invalid  bool  `json:"invalid,omitempty"`
	Busy     bool  `json:"busy,omitempty"`
	// Multiline marks a code editor's or terminal's text box; Partial says
	// its value holds only the lines the editor has drawn.
	Multiline bool `json:"multiline,omitempty"`
	Partial   bool `json:"partial,omitempty"`
}

// parseFlags reads the walker's flag string ("checked focused
// expanded=false"); nil when there is none.
func parseFlags(s string) *State {
	if s == "" {
		return nil
	}
	var st State
	yes, no := true, false
	for _, f := range strings.Fields(s) {
		switch f {
		case "disabled":
			st.Disabled = true
		case "checked":
			st.Checked = True
		case "mixed":
			st.Checked = Mixed
		case "selected":
			st.Selected = true
		case "expanded":
			st.Expanded = &yes
		case "expanded=false":
			st.Expanded = &no
		case "pressed":
			t := True
			st.Pressed = &t
		case "pressed=false":
			t := False
			st.Pressed = &t
		case "pressed=mixed":
			t := Mixed
			st.Pressed = &t
		case "focused":
			st.Focused = true
		case "readonly":
			st.Readonly = true
		case "required":
			st.Required = true
		case "invalid":
			st.Invalid = true
		case "busy":
			st.Busy = true
		case "multiline":
			st.Multiline = true
		case "partial":
			st.Partial = true
		}
	}
	return &st
}

// FrameInfo describes an <iframe> or <frame> entry, so that the caller can
// name the child surface it hosts.
type FrameInfo struct {
	Src  string `json:"src,omitempty"`
	Name string `json:"name,omitempty"`
	ID   string `json:"id,omitempty"`
}

// Entry is one element of a snapshot.
type Entry struct {
	// Ref is absent on a run of bare text (no element holds it alone).
	Ref  int    `json:"ref,omitempty"`
	Role string `json:"role"`
	// Name is the accessible name; for a row or list item without one, the
	// words of its cells or content.
	Name string `json:"name,omitempty"`
	// Text is the element's own words when they are not its name (text
	// holders, containers with loose text).
	Text string `json:"text,omitempty"`
	// TextLength and ValueLength are the whole lengths of a text or value
	// cut to fit (absent when nothing was cut).
	TextLength  int `json:"text_length,omitempty"`
	ValueLength int `json:"value_length,omitempty"`
	// Rows and Rendered are a virtualized list's extent: how many rows it
	// has (RowsEstimated when inferred from its scroll height and row
	// height, not read from aria-setsize / aria-rowcount) and how many are
	// rendered now.
	Rows          int     `json:"rows,omitempty"`
	RowsEstimated bool    `json:"rows_estimated,omitempty"`
	Rendered      int     `json:"rendered,omitempty"`
	Description   string  `json:"description,omitempty"`
	Value         *string `json:"value,omitempty"`
	Placeholder   string  `json:"placeholder,omitempty"`
	Level         int     `json:"level,omitempty"`
	State         *State  `json:"state,omitempty"`
	Interactive   bool    `json:"interactive,omitempty"`
	// Hidden is set only on entries that find returned for visible:false.
	Hidden bool `json:"hidden,omitempty"`
	// Parent is the ref of the nearest enclosing entry.
	Parent int `json:"parent,omitempty"`
	// Context is the label of the row or list item the entry sits in.
	Context   string     `json:"context,omitempty"`
	BBox      *Rect      `json:"bbox,omitempty"` // document coordinates
	Frame     *FrameInfo `json:"frame,omitempty"`
	SurfaceID string     `json:"surface_id,omitempty"` // of the child surface an iframe hosts
}

// wireEntry is an entry as the walker sends it: states as a flag string.
type wireEntry struct {
	Entry
	Flags  string   `json:"flags"`
	Fields []string `json:"fields"`
	Was    *Was     `json:"was"`
}

func (w *wireEntry) entry() Entry {
	e := w.Entry
	e.State = parseFlags(w.Flags)
	return e
}

// Was holds the previous values of the fields of a change.
type Was struct {
	Role  string  `json:"role,omitempty"`
	Name  *string `json:"name,omitempty"`
	Text  *string `json:"text,omitempty"`
	Value *string `json:"value,omitempty"`
	State *State  `json:"state,omitempty"`
	Flags *string `json:"flags,omitempty"`
}

// Change is an entry that changed since the baseline: Fields names what
// changed (role, name, text, value, state, moved) and Was the values
// before.
type Change struct {
	Entry
	Fields []string `json:"fields"`
	Was    *Was     `json:"was,omitempty"`
}

// Removed is an entry of the baseline that is gone.
type Removed struct {
	Ref     int    `json:"ref,omitempty"`
	Role    string `json:"role"`
	Name    string `json:"name,omitempty"`
	Context string `json:"context,omitempty"`
}

// Diff is what changed since a surface's baseline.
type Diff struct {
	Added   []Entry   `json:"added"`
	Removed []Removed `json:"removed"`
	Changed []Change  `json:"changed"`
}

type wireDiff struct {
	Added   []wireEntry `json:"added"`
	Removed []Removed   `json:"removed"`
	Changed []wireEntry `json:"changed"`
}

func (w *wireDiff) diff() *Diff {
	d := &Diff{Added: []Entry{}, Removed: w.Removed, Changed: []Change{}}
	if d.Removed == nil {
		d.Removed = []Removed{}
	}
	for i := range w.Added {
		d.Added = append(d.Added, w.Added[i].entry())
	}
	for i := range w.Changed {
		c := Change{Entry: w.Changed[i].entry(), Fields: w.Changed[i].Fields, Was: w.Changed[i].Was}
		if c.Was != nil && c.Was.Flags != nil {
			c.Was.State = parseFlags(*c.Was.Flags)
			if c.Was.State == nil {
				c.Was.State = &State{}
			}
			c.Was.Flags = nil
		}
		d.Changed = append(d.Changed, c)
	}
	return d
}

// decode unmarshals a walker result.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return json.Unmarshal(raw, v)
}
