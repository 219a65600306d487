package tool

import (
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
)

func itoa(n int) string { return strconv.Itoa(n) }

// checkLoopbackURL refuses a URL whose host is not loopback.
func checkLoopbackURL(field, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return errs.BadArg(field, "not a URL: %q", raw)
	}
	if err := browser.CheckLoopback(u.Hostname()); err != nil {
		return errs.BadArg(field, "host %q is not loopback; only 127.0.0.1, ::1 and localhost are allowed", u.Hostname())
	}
	return nil
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
