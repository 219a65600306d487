package tool

import (
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

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
