package mainproc

import (
	"encoding/json"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestArgsCheckNamesTheField: each tool argument type's Check refuses bad
// input with a BAD_ARGUMENT naming the field, and passes good input.
func TestArgsCheckNamesTheField(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
		field string
	}{
		{"invoke ok", (&InvokeArgs{Channel: "a"}).Check, ""},
		{"inject ok", (&InjectArgs{PID: 42}).Check, ""},
		{"inject no pid", (&InjectArgs{TimeoutMs: -1}).Check, "pid"},
		{"inject timeout", (&InjectArgs{PID: 42, TimeoutMs: 60001}).Check, "timeoutMs"},
		{"invoke channel", (&InvokeArgs{Channel: " "}).Check, "channel"},
		{"invoke timeout", (&InvokeArgs{Channel: "a", TimeoutMs: 120001}).Check, "timeoutMs"},
		{"menu ok", (&MenuItemArgs{Path: []string{"File"}}).Check, ""},
		{"menu none", (&MenuItemArgs{}).Check, "path"},
		{"menu both", (&MenuItemArgs{Path: []string{"File"}, ID: "x"}).Check, "id"},
		{"menu empty segment", (&MenuItemArgs{Path: []string{"File", ""}}).Check, "path[1]"},
		{"capture ok", (&IPCCaptureArgs{Channels: []string{"a"}}).Check, ""},
		{"capture none", (&IPCCaptureArgs{}).Check, "channels"},
		{"capture events", (&IPCCaptureArgs{Channels: []string{"a"}, MaxEvents: 10001}).Check, "maxEvents"},
		{"capture bytes", (&IPCCaptureArgs{Channels: []string{"a"}, MaxArgBytes: -1}).Check, "maxArgBytes"},
		{"capture channel", (&IPCCaptureArgs{Channels: []string{"a", ""}}).Check, "channels[1]"},
		{"captured since", (&IPCCapturedArgs{Since: -1}).Check, "since"},
		{"stub ok", (&IPCStubArgs{Channel: "a", Response: json.RawMessage(`{"x":1}`)}).Check, ""},
		{"stub channel", (&IPCStubArgs{}).Check, "channel"},
		{"stub remove", (&IPCStubArgs{Channel: "a", Remove: true, Times: 1}).Check, "remove"},
		{"stub both", (&IPCStubArgs{Channel: "a", Response: json.RawMessage(`1`), Error: "e"}).Check, "error"},
		{"stub json", (&IPCStubArgs{Channel: "a", Response: json.RawMessage(`{`)}).Check, "response"},
		{"tray ok", (&TrayInvokeArgs{ID: 1, Event: "click"}).Check, ""},
		{"tray id", (&TrayInvokeArgs{Event: "click"}).Check, "id"},
		{"tray event", (&TrayInvokeArgs{ID: 1, Event: "tap"}).Check, "event"},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
}
