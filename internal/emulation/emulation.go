package emulation

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Viewport is an emulated screen.
type Viewport struct {
	Width             int     `json:"width" jsonschema:"CSS pixels"`
	Height            int     `json:"height" jsonschema:"CSS pixels"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor,omitempty" jsonschema:"device pixels per CSS pixel; 0: the screen's"`
	Mobile            bool    `json:"mobile,omitempty" jsonschema:"emulate a mobile device (meta viewport, overlay scrollbars)"`
}

// Geolocation is an emulated position.
type Geolocation struct {
	Latitude  float64 `json:"latitude" jsonschema:"degrees, -90 to 90"`
	Longitude float64 `json:"longitude" jsonschema:"degrees, -180 to 180"`
	Accuracy  float64 `json:"accuracy,omitempty" jsonschema:"meters"`
}

// State is what a window is given; nil and "" fields are not overridden.
type State struct {
	Viewport      *Viewport    `json:"viewport,omitempty"`
	Device        string       `json:"device,omitempty"`
	ColorScheme   string       `json:"colorScheme,omitempty"`
	ReducedMotion string       `json:"reducedMotion,omitempty"`
	ForcedColors  string       `json:"forcedColors,omitempty"`
	Media         string       `json:"media,omitempty"`
	Timezone      string       `json:"timezone,omitempty"`
	Locale        string       `json:"locale,omitempty"`
	Geolocation   *Geolocation `json:"geolocation,omitempty"`
	CPUThrottle   float64      `json:"cpuThrottle,omitempty"`
	UserAgent     string       `json:"userAgent,omitempty"`
}

// Device is a built-in device: its viewport and user agent.
type Device struct {
	Viewport  Viewport
	UserAgent string
}

// devices is the built-in list (viewports as the vendors publish them).
func devices() map[string]Device {
	const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
	const android = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
	const ipad = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
	return map[string]Device{
		"iPhone 15":      {Viewport{393, 852, 3, true}, iphone},
		"iPhone SE":      {Viewport{375, 667, 2, true}, iphone},
		"Pixel 7":        {Viewport{412, 915, 2.625, true}, android},
		"iPad Mini":      {Viewport{768, 1024, 2, true}, ipad},
		"Laptop 1366":    {Viewport{1366, 768, 1, false}, ""},
		"Desktop 1080p":  {Viewport{1920, 1080, 1, false}, ""},
		"Desktop HiDPI":  {Viewport{1440, 900, 2, false}, ""},
		"Small window":   {Viewport{800, 600, 1, false}, ""},
		"Galaxy S20":     {Viewport{360, 800, 3, true}, android},
		"Surface Duo":    {Viewport{540, 720, 2.5, true}, android},
		"Desktop 4K":     {Viewport{3840, 2160, 1, false}, ""},
		"Desktop 1280":   {Viewport{1280, 800, 1, false}, ""},
		"Narrow sidebar": {Viewport{360, 900, 1, false}, ""},
	}
}

// Devices lists the built-in device names, sorted.
func Devices() []string {
	var out []string
	for n := range devices() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupDevice returns a built-in device by name (case-insensitive).
func LookupDevice(name string) (Device, bool) {
	for n, d := range devices() {
		if strings.EqualFold(n, name) {
			return d, true
		}
	}
	return Device{}, false
}

// Validate checks a change; fields are named as the tool names them.
func (s *State) Validate() error {
	if v := s.Viewport; v != nil {
		switch {
		case v.Width <= 0 || v.Width > 10000:
			return errs.BadArg("viewport.width", "must be between 1 and 10000")
		case v.Height <= 0 || v.Height > 10000:
			return errs.BadArg("viewport.height", "must be between 1 and 10000")
		case v.DeviceScaleFactor < 0 || v.DeviceScaleFactor > 10:
			return errs.BadArg("viewport.deviceScaleFactor", "must be between 0 (the screen's) and 10")
		}
	}
	if s.Device != "" {
		if _, ok := LookupDevice(s.Device); !ok {
			return errs.BadArg("device", "unknown device %q; built in: %s", s.Device, strings.Join(Devices(), ", "))
		}
	}
	oneOf := func(field, v string, allowed ...string) error {
		if v == "" {
			return nil
		}
		for _, a := range allowed {
			if v == a {
				return nil
			}
		}
		return errs.BadArg(field, "must be one of %s", strings.Join(allowed, ", "))
	}
	for _, c := range []error{
		oneOf("colorScheme", s.ColorScheme, "light", "dark", "no-preference"),
		oneOf("reducedMotion", s.ReducedMotion, "reduce", "no-preference"),
		oneOf("forcedColors", s.ForcedColors, "active", "none"),
		oneOf("media", s.Media, "screen", "print"),
	} {
		if c != nil {
			return c
		}
	}
	if g := s.Geolocation; g != nil {
		switch {
		case g.Latitude < -90 || g.Latitude > 90:
			return errs.BadArg("geolocation.latitude", "must be between -90 and 90")
		case g.Longitude < -180 || g.Longitude > 180:
			return errs.BadArg("geolocation.longitude", "must be between -180 and 180")
		case g.Accuracy < 0:
			return errs.BadArg("geolocation.accuracy", "must be 0 or more")
		}
	}
	if s.CPUThrottle != 0 && (s.CPUThrottle < 1 || s.CPUThrottle > 100) {
		return errs.BadArg("cpuThrottle", "must be a slowdown factor between 1 (none) and 100")
	}
	return nil
}

// Merge returns prev with the fields change sets; a device sets the
// viewport and user agent it names unless the change gives them too.
func Merge(prev, change State) State {
	out := prev
	if change.Device != "" {
		d, _ := LookupDevice(change.Device)
		vp := d.Viewport
		out.Viewport, out.Device = &vp, change.Device
		if d.UserAgent != "" {
			out.UserAgent = d.UserAgent
		}
	}
	if change.Viewport != nil {
		vp := *change.Viewport
		out.Viewport = &vp
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&out.ColorScheme, change.ColorScheme)
	set(&out.ReducedMotion, change.ReducedMotion)
	set(&out.ForcedColors, change.ForcedColors)
	set(&out.Media, change.Media)
	set(&out.Timezone, change.Timezone)
	set(&out.Locale, change.Locale)
	set(&out.UserAgent, change.UserAgent)
	if change.Geolocation != nil {
		g := *change.Geolocation
		out.Geolocation = &g
	}
	if change.CPUThrottle != 0 {
		out.CPUThrottle = change.CPUThrottle
	}
	return out
}

// Apply gives the window's socket the whole state s (what Merge made).
// Timezone and locale go first, as only the browser knows which IDs it
// takes: when it rejects one, the window keeps prev's and nothing else of
// this change is applied (EMULATION_REJECTED naming the field).
func Apply(ctx context.Context, conn *cdp.Conn, prev, s State) error {
	reject := func(field string, err error) error {
		var pe *cdp.ProtocolError
		if errors.As(err, &pe) {
			return errs.New(errs.EmulationRejected, "%s: the browser rejected it: %s", field, pe.Message).With("field", field)
		}
		return err
	}
	if s.Timezone != prev.Timezone {
		if err := conn.Call(ctx, "Emulation.setTimezoneOverride", map[string]any{"timezoneId": s.Timezone}, nil); err != nil {
			return reject("timezone", err)
		}
	}
	if s.Locale != prev.Locale {
		if err := conn.Call(ctx, "Emulation.setLocaleOverride", map[string]any{"locale": s.Locale}, nil); err != nil {
			if s.Timezone != prev.Timezone { // undo the timezone of this change
				_ = conn.Call(ctx, "Emulation.setTimezoneOverride", map[string]any{"timezoneId": prev.Timezone}, nil)
			}
			return reject("locale", err)
		}
	}
	if v := s.Viewport; v != nil {
		if err := conn.Call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
			"width": v.Width, "height": v.Height, "deviceScaleFactor": v.DeviceScaleFactor, "mobile": v.Mobile,
			"screenWidth": v.Width, "screenHeight": v.Height,
		}, nil); err != nil {
			return reject("viewport", err)
		}
	} else if prev.Viewport != nil {
		if err := conn.Call(ctx, "Emulation.clearDeviceMetricsOverride", nil, nil); err != nil {
			return err
		}
	}
	if v := s.Viewport; v != nil && v.Mobile != (prev.Viewport != nil && prev.Viewport.Mobile) {
		if err := conn.Call(ctx, "Emulation.setTouchEmulationEnabled", map[string]any{"enabled": v.Mobile}, nil); err != nil {
			return reject("viewport.mobile", err)
		}
	}
	features := []map[string]string{
		{"name": "prefers-color-scheme", "value": s.ColorScheme},
		{"name": "prefers-reduced-motion", "value": s.ReducedMotion},
		{"name": "forced-colors", "value": s.ForcedColors},
	}
	if err := conn.Call(ctx, "Emulation.setEmulatedMedia", map[string]any{"media": s.Media, "features": features}, nil); err != nil {
		return reject("media", err)
	}
	if g := s.Geolocation; g != nil {
		acc := g.Accuracy
		if acc == 0 {
			acc = 10
		}
		if err := conn.Call(ctx, "Emulation.setGeolocationOverride", map[string]any{"latitude": g.Latitude, "longitude": g.Longitude, "accuracy": acc}, nil); err != nil {
			return reject("geolocation", err)
		}
	} else if prev.Geolocation != nil {
		if err := conn.Call(ctx, "Emulation.clearGeolocationOverride", nil, nil); err != nil {
			return err
		}
	}
	rate := s.CPUThrottle
	if rate == 0 {
		rate = 1
	}
	if rate != prev.CPUThrottle && !(rate == 1 && prev.CPUThrottle == 0) {
		if err := conn.Call(ctx, "Emulation.setCPUThrottlingRate", map[string]any{"rate": rate}, nil); err != nil {
			return reject("cpuThrottle", err)
		}
	}
	if s.UserAgent != prev.UserAgent {
		if err := conn.Call(ctx, "Emulation.setUserAgentOverride", map[string]any{"userAgent": s.UserAgent}, nil); err != nil {
			return reject("userAgent", err)
		}
	}
	return nil
}

// Observed is what the window's document reports after an emulation.
type Observed struct {
	InnerWidth       int     `json:"innerWidth"`
	InnerHeight      int     `json:"innerHeight"`
	ScreenWidth      int     `json:"screenWidth"`
	ScreenHeight     int     `json:"screenHeight"`
	DevicePixelRatio float64 `json:"devicePixelRatio"`
	ColorScheme      string  `json:"colorScheme"`
	ReducedMotion    bool    `json:"reducedMotion"`
	ForcedColors     bool    `json:"forcedColors"`
	Print            bool    `json:"print"`
	Timezone         string  `json:"timezone"`
	Locale           string  `json:"locale"`
	UserAgent        string  `json:"userAgent"`
}

const observeJS = `(() => {
  const m = q => matchMedia(q).matches;
  return {innerWidth, innerHeight, screenWidth: screen.width, screenHeight: screen.height, devicePixelRatio,
    colorScheme: m('(prefers-color-scheme: dark)') ? 'dark' : 'light',
    reducedMotion: m('(prefers-reduced-motion: reduce)'), forcedColors: m('(forced-colors: active)'),
    print: m('print'), timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale: Intl.DateTimeFormat().resolvedOptions().locale, userAgent: navigator.userAgent};
})()`

// Observe reads what the window's document sees.
func Observe(ctx context.Context, conn *cdp.Conn) (*Observed, error) {
	var out struct {
		Result struct {
			Value Observed `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	if err := conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": observeJS, "returnByValue": true}, &out); err != nil {
		return nil, err
	}
	if out.ExceptionDetails != nil {
		return nil, fmt.Errorf("emulation: the page could not report its state")
	}
	return &out.Result.Value, nil
}

// Verify compares what the document reports with the state it was given;
// it returns the first field that does not hold.
func Verify(s State, o *Observed) (string, bool) {
	switch {
	// A mobile viewport lays out a page without <meta name=viewport> at
	// 980 CSS pixels, as phones do: the screen is what was emulated.
	case s.Viewport != nil && !s.Viewport.Mobile && o.InnerWidth != s.Viewport.Width,
		s.Viewport != nil && s.Viewport.Mobile && o.ScreenWidth != s.Viewport.Width:
		return "viewport.width", false
	case s.Viewport != nil && s.Viewport.DeviceScaleFactor > 0 && o.DevicePixelRatio != s.Viewport.DeviceScaleFactor:
		return "viewport.deviceScaleFactor", false
	case s.ColorScheme == "dark" && o.ColorScheme != "dark", s.ColorScheme == "light" && o.ColorScheme != "light":
		return "colorScheme", false
	case s.ReducedMotion != "" && o.ReducedMotion != (s.ReducedMotion == "reduce"):
		return "reducedMotion", false
	case s.Timezone != "" && o.Timezone != s.Timezone:
		return "timezone", false
	case s.Locale != "" && !strings.EqualFold(o.Locale, s.Locale):
		return "locale", false
	case s.UserAgent != "" && o.UserAgent != s.UserAgent:
		return "userAgent", false
	}
	return "", true
}

// Book remembers what each window of a session was given.
type Book struct {
	mu sync.Mutex
	by map[string]State
}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{by: map[string]State{}} }

// Get returns a window's state.
func (b *Book) Get(window string) State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.by[window]
}

// Put records a window's state; an empty state removes the window.
func (b *Book) Put(window string, s State) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s == (State{}) {
		delete(b.by, window)
		return
	}
	b.by[window] = s
}

// Prune forgets every window live does not report alive (ADR-008: state
// keyed by a target goes with it).
func (b *Book) Prune(live func(window string) bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for w := range b.by {
		if !live(w) {
			delete(b.by, w)
		}
	}
}

// Forget drops a window's record (its target is gone).
func (b *Book) Forget(window string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.by, window)
}

// BookStats counts what the book keeps.
type BookStats struct {
	Windows int // windows with an emulation recorded
}

// Stats returns the counts now.
func (b *Book) Stats() BookStats { return BookStats{Windows: b.Len()} }

// Len is how many windows the book holds (Stats).
func (b *Book) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.by)
}

// Change gives window (on conn) the state next makes of what the book
// says it has, reads back what its document reports and keeps the new
// state in the book. When the browser took a value the page does not show
// (Chromium takes some unknown timezone IDs) the window is put back as it
// was and the answer is EMULATION_REJECTED naming the field.
func (b *Book) Change(ctx context.Context, conn *cdp.Conn, window string, next func(State) State) (*Result, error) {
	prev := b.Get(window)
	s := next(prev)
	if err := Apply(ctx, conn, prev, s); err != nil {
		return nil, err
	}
	obs, err := Observe(ctx, conn)
	if err != nil {
		b.Put(window, s)
		return nil, err
	}
	if field, ok := Verify(s, obs); !ok {
		if rerr := Apply(ctx, conn, s, prev); rerr != nil {
			b.Put(window, s)
		}
		return nil, errs.New(errs.EmulationRejected, "%s: the browser took the value but the page does not report it; the window is as it was", field).
			With("field", field).With("observed", obs)
	}
	b.Put(window, s)
	return &Result{WindowID: window, Emulated: s, Observed: obs}, nil
}
