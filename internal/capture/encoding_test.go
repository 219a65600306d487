package capture

import (
	"errors"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestEncodingCheck: a bad format or quality is BAD_ARGUMENT naming it.
func TestEncodingCheck(t *testing.T) {
	q, bad := 50, 101
	for _, c := range []struct {
		e     Encoding
		field string
		name  string
	}{
		{Encoding{}, "", "png"},
		{Encoding{Format: "jpg", Quality: &q}, "", "jpeg"},
		{Encoding{Format: "png", Quality: &q}, "quality", "png"},
		{Encoding{Format: "jpeg", Quality: &bad}, "quality", "jpeg"},
		{Encoding{Format: "gif"}, "format", "png"},
	} {
		err := c.e.Check()
		if c.field == "" && err != nil {
			t.Errorf("%+v: %v", c.e, err)
		}
		var e *errs.Error
		if c.field != "" && (!errors.As(err, &e) || e.Details["field"] != c.field) {
			t.Errorf("%+v: %v, want BAD_ARGUMENT naming %s", c.e, err, c.field)
		}
		if n := c.e.Name(); n != c.name {
			t.Errorf("%+v: name %s, want %s", c.e, n, c.name)
		}
	}
	if o := (&Encoding{Format: "jpeg"}).Options(); o.Quality != 80 {
		t.Errorf("default jpeg quality %d", o.Quality)
	}
	clip, cut := FullPageClip(100, 20000)
	if clip.Height != MaxClipSide || !cut.Truncated || cut.FullHeight != 20000 {
		t.Errorf("full page clip %+v %+v", clip, cut)
	}
}

func TestFileName(t *testing.T) {
	at := time.Date(2026, 12, 7, 17, 5, 9, 123e6, time.FixedZone("x", 3600))
	if got := FileName("png", at); got != "screenshot-20261207-160509.123.png" {
		t.Errorf("png: %s", got)
	}
	if got := FileName("jpeg", at); got != "screenshot-20261207-160509.123.jpg" {
		t.Errorf("jpeg: %s", got)
	}
}
