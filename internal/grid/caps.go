package grid

import (
	"maps"
	"net/url"
	"slices"

	"github.com/understudy-dev/understudy/internal/errs"
)

// CheckTarget checks a grid's URL (field "grid": http or https with a
// host) and that the capabilities' goog:chromeOptions, when given, is an
// object (field "capabilities").
func CheckTarget(grid string, caps map[string]any) error {
	u, err := url.Parse(grid)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errs.BadArg("grid", "%q is not a grid URL like http://HOST:4444", grid)
	}
	if o, ok := caps["goog:chromeOptions"]; ok {
		if _, ok := o.(map[string]any); !ok {
			return errs.BadArg("capabilities", "goog:chromeOptions must be an object")
		}
	}
	return nil
}

// AlwaysMatch builds a session's alwaysMatch: the caller's capabilities
// (not changed), browserName chrome by default, with binary as
// goog:chromeOptions.binary and args appended to its args.
func AlwaysMatch(caps map[string]any, binary string, args []string) map[string]any {
	caps = maps.Clone(caps)
	if caps == nil {
		caps = map[string]any{}
	}
	if _, ok := caps["browserName"]; !ok {
		caps["browserName"] = "chrome"
	}
	opts := map[string]any{}
	if o, ok := caps["goog:chromeOptions"].(map[string]any); ok {
		opts = maps.Clone(o)
	}
	if binary != "" {
		opts["binary"] = binary
	}
	if len(args) > 0 {
		var all []any
		if prev, ok := opts["args"].([]any); ok {
			all = slices.Clone(prev)
		}
		for _, x := range args {
			all = append(all, x)
		}
		opts["args"] = all
	}
	if len(opts) > 0 {
		caps["goog:chromeOptions"] = opts
	}
	return caps
}
