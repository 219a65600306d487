package network

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestArgsCheckNamesTheField: each tool argument type's Check refuses bad
// input with a BAD_ARGUMENT naming the field, and passes good input.
func TestArgsCheckNamesTheField(t *testing.T) {
	body := "x"
	for _, c := range []struct {
		name  string
		check func() error
		field string
	}{
		{"capture ok", (&CaptureArgs{CaptureBodies: "size"}).Check, ""},
		{"capture bodies", (&CaptureArgs{CaptureBodies: 3}).Check, "captureBodies"},
		{"capture max", (&CaptureArgs{MaxBodyBytes: MaxBodyBytesLimit + 1}).Check, "maxBodyBytes"},
		{"capture budget", (&CaptureArgs{BodyBudgetBytes: -1}).Check, "bodyBudgetBytes"},
		{"capture type", (&CaptureArgs{Filter: Filter{ResourceTypes: []string{"nope"}}}).Check, "resourceTypes"},
		{"captured since", (&CapturedArgs{Since: -1}).Check, "since"},
		{"captured limit", (&CapturedArgs{Limit: 2001}).Check, "limit"},
		{"stub ok", (&StubArgs{Filter: Filter{Globs: []string{"*"}}, Body: &body}).Check, ""},
		{"stub urls", (&StubArgs{Status: 200}).Check, "urls"},
		{"stub abort", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Abort: "nope"}).Check, "abort"},
		{"stub abort with body", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Abort: "failed", Body: &body}).Check, "abort"},
		{"stub continue", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Continue: &ContinueArgs{}, Status: 200}).Check, "continue"},
		{"stub status", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Status: 600}).Check, "status"},
		{"stub bodies", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Body: &body, BodyFile: "/x"}).Check, "body"},
		{"stub delay", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, DelayMs: 60001}).Check, "delayMs"},
		{"stub times", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Times: -1}).Check, "times"},
		{"stub base64", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, BodyBase64: "!"}).Check, "bodyBase64"},
		{"stub continue url", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Continue: &ContinueArgs{URL: "x"}}).Check, "continue.url"},
		{"stub header", (&StubArgs{Filter: Filter{URLs: []string{"a"}}, Headers: map[string]string{"a:b": "c"}}).Check, "headers"},
		{"export path", (&ExportHARArgs{}).Check, "path"},
		{"export since", (&ExportHARArgs{Path: "a.har", Since: -1}).Check, "since"},
		{"replay path", (&ReplayHARArgs{}).Check, "path"},
		{"replay notFound", (&ReplayHARArgs{Path: "a.har", NotFound: "skip"}).Check, "notFound"},
		{"conditions latency", (&ConditionsArgs{LatencyMs: 60001}).Check, "latencyMs"},
		{"conditions down", (&ConditionsArgs{DownloadKbps: -1}).Check, "downloadKbps"},
		{"conditions up", (&ConditionsArgs{UploadKbps: -1}).Check, "uploadKbps"},
		{"conditions ok", (&ConditionsArgs{Offline: true}).Check, ""},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
}
