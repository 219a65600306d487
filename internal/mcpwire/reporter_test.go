package mcpwire

import (
	"fmt"
	"reflect"
	"testing"
)

// TestReporterSteps: steps count up to the total said, and a step past
// it raises the total so the last step reported is the total.
func TestReporterSteps(t *testing.T) {
	var got []string
	r := NewReporter(func(msg string, done, total float64) { got = append(got, fmt.Sprintf("%s %g/%g", msg, done, total)) })
	r.Steps(2)
	r.Step("a")
	r.Step("b")
	r.Step("c")
	r.Progress("bytes", 10, 100)
	want := []string{"a 1/2", "b 2/2", "c 3/3", "bytes 10/100"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reported %q, want %q", got, want)
	}
	silent := NewReporter(nil)
	silent.Steps(1)
	silent.Step("nobody asked") // must not panic
}
