package session

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestStopArgsCheck(t *testing.T) {
	for _, ms := range []int{0, 120000} {
		if err := (&StopArgs{TimeoutMs: ms}).Check(); err != nil {
			t.Errorf("timeoutMs %d: %v", ms, err)
		}
	}
	for _, ms := range []int{-1, 120001} {
		e := errs.As((&StopArgs{TimeoutMs: ms}).Check())
		if e == nil || e.Code != errs.BadArgument || e.Details["field"] != "timeoutMs" {
			t.Errorf("timeoutMs %d: %v, want BAD_ARGUMENT naming timeoutMs", ms, e)
		}
	}
}

func TestUAVersion(t *testing.T) {
	ua := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) app/1.0 Chrome/120.0.6099.56 Electron/28.0.0 Safari/537.36"
	for marker, want := range map[string]string{"Chrome/": "120.0.6099.56", "Electron/": "28.0.0", "Firefox/": ""} {
		if got := uaVersion(ua, marker); got != want {
			t.Errorf("%s: %q, want %q", marker, got, want)
		}
	}
}
