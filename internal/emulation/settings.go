package emulation

import "github.com/understudy-dev/understudy/internal/errs"

// Settings is emulation_set's arguments: the fields of a window's State to
// change, with their JSON names and descriptions (the tool's input
// schema). State itself carries no descriptions, as the result shows it.
type Settings struct {
	Viewport      *Viewport    `json:"viewport,omitempty" jsonschema:"the emulated screen: width and height in CSS pixels, deviceScaleFactor (0 = the screen's), mobile"`
	Device        string       `json:"device,omitempty" jsonschema:"a built-in device name (sets viewport and user agent)"`
	ColorScheme   string       `json:"colorScheme,omitempty" jsonschema:"light, dark or no-preference"`
	ReducedMotion string       `json:"reducedMotion,omitempty" jsonschema:"reduce or no-preference"`
	ForcedColors  string       `json:"forcedColors,omitempty" jsonschema:"active or none"`
	Media         string       `json:"media,omitempty" jsonschema:"screen or print"`
	Timezone      string       `json:"timezone,omitempty" jsonschema:"an IANA timezone ID like Europe/Berlin"`
	Locale        string       `json:"locale,omitempty" jsonschema:"a BCP 47 locale like de-DE"`
	Geolocation   *Geolocation `json:"geolocation,omitempty" jsonschema:"latitude, longitude and accuracy (meters)"`
	CPUThrottle   float64      `json:"cpuThrottle,omitempty" jsonschema:"CPU slowdown factor, 1 = none"`
	UserAgent     string       `json:"userAgent,omitempty" jsonschema:"the user agent string"`
}

// Change is the settings as the State change Merge applies (the same
// fields, without the descriptions).
func (s Settings) Change() State { return State(s) }

// Check wants at least one field (BAD_ARGUMENT on viewport otherwise) and
// a valid change (State.Validate).
func (s Settings) Check() error {
	c := s.Change()
	if c == (State{}) {
		return errs.BadArg("viewport", "pass at least one field to emulate (or call emulation_reset)")
	}
	return c.Validate()
}

// Onto is prev with the settings merged in (Merge), for Book.Change.
func (s Settings) Onto(prev State) State { return Merge(prev, s.Change()) }

// Cleared is no emulation at all, whatever prev was, for Book.Change.
func Cleared(State) State { return State{} }

// Result is a window's emulation after a change, and what its document
// reports.
type Result struct {
	WindowID string    `json:"window_id"`
	Emulated State     `json:"emulated" jsonschema:"every emulation the window has now"`
	Observed *Observed `json:"observed" jsonschema:"what the window's document reports now"`
}
