package surface_test

import (
	"reflect"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
	"github.com/understudy-dev/understudy/internal/surface"
)

// TestSwitchArgsCheck: a blank surface id is a BAD_ARGUMENT on surfaceId.
func TestSwitchArgsCheck(t *testing.T) {
	errstest.CheckField(t, "blank", (&surface.SwitchArgs{SurfaceID: " "}).Check(), "surfaceId")
	errstest.CheckField(t, "s1", (&surface.SwitchArgs{SurfaceID: "s1"}).Check(), "")
}

// TestListingClassify: the main process's kinds set the roots' kinds and
// the native windows that hold them (the window's own page first); a
// frame and a root the main process does not know keep CDP's kind.
func TestListingClassify(t *testing.T) {
	one := 1
	l := &surface.Listing{KindsFrom: "cdp", Surfaces: []surface.Entry{
		{Descriptor: surface.Descriptor{ID: "v", Kind: "other", FrameID: "T2"}},
		{Descriptor: surface.Descriptor{ID: "w", Kind: "other", FrameID: "T1"}},
		{Descriptor: surface.Descriptor{ID: "f", Kind: "frame", ParentID: "w", FrameID: "F1"}},
		{Descriptor: surface.Descriptor{ID: "u", Kind: "other", FrameID: "T3"}},
	}}
	if got := l.Roots(); !reflect.DeepEqual(got, []string{"T2", "T1", "T3"}) {
		t.Errorf("roots %v", got)
	}
	l.Classify(nil)
	if l.KindsFrom != "cdp" {
		t.Fatalf("no kinds: %s", l.KindsFrom)
	}
	l.Classify(map[string]surface.RootKind{
		"T1": {WebContentsID: 1, Kind: "window", WindowID: &one},
		"T2": {WebContentsID: 2, Kind: "webcontents_view", WindowID: &one},
		"F1": {WebContentsID: 9, Kind: "window"},
	})
	if l.KindsFrom != "main_process" || l.Surfaces[0].Kind != "webcontents_view" || l.Surfaces[1].Kind != "window" ||
		l.Surfaces[2].Kind != "frame" || l.Surfaces[2].WebContentsID != nil || l.Surfaces[3].Kind != "other" {
		t.Errorf("kinds: %+v", l.Surfaces)
	}
	if want := []surface.NativeWindow{{WindowID: 1, SurfaceIDs: []string{"w", "v"}}}; !reflect.DeepEqual(l.Windows, want) {
		t.Errorf("windows %+v, want %+v", l.Windows, want)
	}
}
