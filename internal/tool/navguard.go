package tool

import (
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// checkNavigateURL refuses, before anything is sent, a URL that
// electron_navigate must not open: not an absolute URL ("example.com":
// BAD_ARGUMENT with the https:// guess as hint), javascript: (code runs
// only through the eval tools), and pages that act on the browser
// (chrome://quit, about:crash, ...; the rule the relay applies too).
func checkNavigateURL(raw string) error {
	if why, hint := urlpolicy.Navigable(raw); why != "" {
		e := errs.BadArg("url", "%s", why)
		e.Hint = hint
		return e
	}
	return nil
}

// checkOrigin applies the operator's --allowed-origins/--blocked-origins.
func (s *Server) checkOrigin(raw string) error {
	o := urlpolicy.Origins{Allowed: s.cfg.AllowedOrigins, Blocked: s.cfg.BlockedOrigins}
	if why := o.Check(raw); why != "" {
		e := errs.BadArg("url", "%s", why)
		e.Hint = "navigate to an allowed origin; the operator sets --allowed-origins and --blocked-origins"
		return e
	}
	return nil
}
