package surface

import (
	"context"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
	"github.com/understudy-dev/understudy/internal/page"
)

// TestAllChecks: surfaces:'all' refuses another value, another format
// than text and scrolling, naming the field, before it reads anything.
func TestAllChecks(t *testing.T) {
	var r *Registry // the checks come first: no registry is touched
	ctx := context.Background()
	snap := func(surfaces, format string) func() error {
		return func() error {
			_, err := r.SnapshotAll(ctx, nil, surfaces, &page.SnapshotQuery{Format: format})
			return err
		}
	}
	find := func(surfaces string, scroll bool) func() error {
		return func() error {
			_, err := r.FindAll(ctx, nil, surfaces, page.FindQuery{}, &page.FindScroll{Scroll: scroll})
			return err
		}
	}
	for _, c := range []struct {
		name  string
		check func() error
		field string
	}{
		{"snapshot surfaces", snap("some", ""), "surfaces"},
		{"snapshot surfaces before format", snap("some", "json"), "surfaces"},
		{"snapshot json", snap("all", "json"), "format"},
		{"find surfaces", find("one", false), "surfaces"},
		{"find scroll", find("all", true), "scroll"},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
}
