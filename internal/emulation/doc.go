// Package emulation is how a window root is shown to its documents: the
// viewport (size, device scale factor, mobile), CSS media (type, color
// scheme, reduced motion, forced colors), timezone, locale, geolocation,
// CPU throttling and user agent, over the DevTools Emulation domain, plus
// a built-in list of devices. Overrides live on the window's DevTools
// session, so a Book remembers what each window was given: a change names
// only the fields it changes, and the rest stay as they were.
package emulation
