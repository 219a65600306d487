package clock

import "testing"

func TestParseTime(t *testing.T) {
	for v, want := range map[string]float64{"1700000000000": 1700000000000, "2026-01-02": 1767312000000, "1970-01-01T00:00:01Z": 1000} {
		if got, err := ParseTime("time", v); err != nil || got != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "yesterday"} {
		if _, err := ParseTime("time", bad); err == nil {
			t.Errorf("ParseTime(%q) passed", bad)
		}
	}
}
