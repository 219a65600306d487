package nav

import (
	"errors"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestURLArgError(t *testing.T) {
	if e := errs.As(URLArgError("x", &RefusedError{Message: "invalid URL"})); e == nil || e.Code != errs.BadArgument || e.Details["field"] != "url" {
		t.Fatalf("refused: %v", e)
	}
	if e := errs.As(URLArgError("x", &FailedError{Text: "net::ERR_NAME_NOT_RESOLVED"})); e == nil || e.Code != errs.BadArgument {
		t.Fatalf("failed: %v", e)
	}
	other := errors.New("other")
	if URLArgError("x", other) != other {
		t.Fatal("another error was changed")
	}
}
