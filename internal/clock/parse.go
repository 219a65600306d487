package clock

import (
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ParseTime reads a time as epoch ms or ISO-8601 (RFC 3339, or a local
// date and time, or a date); BAD_ARGUMENT names field.
func ParseTime(field, v string) (float64, error) {
	if v == "" {
		return 0, errs.BadArg(field, "is required (epoch ms or ISO-8601)")
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f < 0 || f > 8.64e15 {
			return 0, errs.BadArg(field, "epoch ms out of range")
		}
		return f, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return float64(t.UnixMilli()), nil
		}
	}
	return 0, errs.BadArg(field, "%q is neither epoch ms nor ISO-8601 (2026-01-02T15:04:05Z)", v)
}
