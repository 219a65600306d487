package page

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestReadArgsCheck: each read option refuses bad input naming its field.
func TestReadArgsCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
		field string
	}{
		{"list no selector", (&ListQuery{Selector: " "}).Check, "selector"},
		{"list limit", (&ListQuery{Selector: "a", Limit: 201}).Check, "limit"},
		{"list ok", (&ListQuery{Selector: "a"}).Check, ""},
		{"attribute blank", (&AttributeName{}).Check, "name"},
		{"attribute ok", (&AttributeName{Name: "href"}).Check, ""},
		{"style none", (&StyleQuery{}).Check, "properties"},
		{"style too many", (&StyleQuery{Properties: strings.Split(strings.Repeat("x,", 100), ",")}).Check, "properties"},
		{"style ok", (&StyleQuery{Properties: []string{"color"}}).Check, ""},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
}

// TestSnapshotQueryOptions: the text form unless another was asked for.
func TestSnapshotQueryOptions(t *testing.T) {
	if o := (&SnapshotQuery{MaxEntries: 5}).Options(); o.Format != "text" || o.MaxEntries != 5 {
		t.Errorf("default: %+v", o)
	}
	if o := (&SnapshotQuery{Format: "json", Since: "last"}).Options(); o.Format != "json" || o.Since != "last" {
		t.Errorf("json: %+v", o)
	}
}

// TestFindScrollCheck: scrolling needs a role or name; its timeout is
// bounded; ScrollLimit falls back to the default.
func TestFindScrollCheck(t *testing.T) {
	for _, c := range []struct {
		s     FindScroll
		q     FindQuery
		field string
	}{
		{FindScroll{Scroll: true}, FindQuery{}, "scroll"},
		{FindScroll{TimeoutMs: -1}, FindQuery{Role: "row"}, "timeoutMs"},
		{FindScroll{Scroll: true, TimeoutMs: 1000}, FindQuery{NameContains: "x"}, ""},
	} {
		err := c.s.CheckWith(&c.q)
		var e *errs.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v: %v", c.s, err)
		case c.field != "" && (!errors.As(err, &e) || e.Details["field"] != c.field):
			t.Errorf("%+v: %v, want BAD_ARGUMENT naming %s", c.s, err, c.field)
		}
	}
	if d := (&FindScroll{}).ScrollLimit(time.Minute); d != time.Minute {
		t.Errorf("default limit %v", d)
	}
	if d := (&FindScroll{TimeoutMs: 2000}).ScrollLimit(time.Minute); d != 2*time.Second {
		t.Errorf("limit %v", d)
	}
}
