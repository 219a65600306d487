package tool

import (
	"encoding/json"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// maxSelectorLen caps every selector argument: a CSS selector is short, and
// a 10 MB one only burns the renderer's time before failing.
const maxSelectorLen = 4096

// checkSelectorLengths refuses, before the strict decode, a top-level
// argument named like a selector (selector, targetSelector, ...) longer
// than maxSelectorLen bytes. m is the arguments normalizeArgs decoded.
func checkSelectorLengths(m map[string]json.RawMessage) error {
	for k, v := range m {
		if len(v) <= maxSelectorLen || !strings.Contains(strings.ToLower(k), "selector") {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil && len(s) > maxSelectorLen {
			return errs.BadArg(k, "is %d bytes; a selector may have at most %d", len(s), maxSelectorLen)
		}
	}
	return nil
}
