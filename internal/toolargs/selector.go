package toolargs

import (
	"encoding/json"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// MaxSelectorLen caps every selector argument: a CSS selector is short, and
// a 10 MB one only burns the renderer's time before failing.
const MaxSelectorLen = 4096

// checkSelectorLengths refuses, before the strict decode, a top-level
// argument named like a selector (selector, targetSelector, ...) longer
// than MaxSelectorLen bytes. m is the arguments normalize decoded.
func checkSelectorLengths(m map[string]json.RawMessage) error {
	for k, v := range m {
		if len(v) <= MaxSelectorLen || !strings.Contains(strings.ToLower(k), "selector") {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil && len(s) > MaxSelectorLen {
			return errs.BadArg(k, "is %d bytes; a selector may have at most %d", len(s), MaxSelectorLen)
		}
	}
	return nil
}
