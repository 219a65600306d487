package emulation

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestSettingsCheck: emulation_set's arguments refuse an empty change and
// bad values with BAD_ARGUMENT naming the field, and pass a good change.
func TestSettingsCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     Settings
		field string // "" when the input is good
	}{
		{"nothing", Settings{}, "viewport"},
		{"width", Settings{Viewport: &Viewport{Width: 0, Height: 10}}, "viewport.width"},
		{"device", Settings{Device: "Toaster"}, "device"},
		{"color scheme", Settings{ColorScheme: "sepia"}, "colorScheme"},
		{"latitude", Settings{Geolocation: &Geolocation{Latitude: 91}}, "geolocation.latitude"},
		{"cpu", Settings{CPUThrottle: 0.5}, "cpuThrottle"},
		{"ok", Settings{Device: "iphone 15", Timezone: "Europe/Berlin"}, ""},
	} {
		errstest.CheckField(t, c.name, c.s.Check(), c.field)
	}
	s := Settings{ColorScheme: "dark"}
	if got := s.Onto(State{Media: "print"}); got.ColorScheme != "dark" || got.Media != "print" {
		t.Fatalf("Onto keeps what the change does not name: %+v", got)
	}
}
