package tool

import (
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// checkNavigateURL refuses, before anything is sent, a URL that
// electron_navigate must not open: pages that act on the browser
// (chrome://quit, about:crash, ...; the rule the relay applies too).
func checkNavigateURL(raw string) error {
	if why := urlpolicy.BrowserActing(raw); why != "" {
		return errs.BadArg("url", "%s", why)
	}
	return nil
}
