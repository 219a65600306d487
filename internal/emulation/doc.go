// Package emulation is how a window root is shown to its documents: the
// viewport (size, device scale factor, mobile), CSS media (type, color
// scheme, reduced motion, forced colors), timezone, locale, geolocation,
// CPU throttling and user agent, over the DevTools Emulation domain, plus
// a built-in list of devices. Overrides live on the window's DevTools
// session, so a Book remembers what each window was given: a change names
// only the fields it changes, and the rest stay as they were. Book.Change
// checks a change against what the page reports and rolls it back when
// refused. emulation_set's arguments (Settings, with their JSON names,
// descriptions and Check) and the tools' Result are here too
// (settings.go); internal/tool embeds Settings and returns the Result.
package emulation
