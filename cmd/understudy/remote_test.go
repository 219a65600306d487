package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRemoteFlags: --allow-remote and --remote-header come through the
// layered flags (flag, env, config); a header value with CR/LF is refused
// without echoing it, and doctor's settings never show a header's value.
func TestRemoteFlags(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var out, errb bytes.Buffer
	f, code, ok := parseMCPFlags([]string{"--allow-remote", "grid.example:4444,10.0.0.5", "--remote-header", "Authorization: Bearer s3cret, with comma"},
		&out, &errb, env(map[string]string{"UNDERSTUDY_ALLOW_AUTO_CONNECT": "true"}))
	if !ok {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !f.remote.Allows("grid.example", 4444) || f.remote.Allows("grid.example", 4445) || !f.remote.Allows("10.0.0.5", 9222) || f.remote.Allows("10.0.0.6", 9222) {
		t.Fatalf("allowlist %+v", f.remote)
	}
	if got := f.remoteHeader.Get("Authorization"); got != "Bearer s3cret, with comma" || !f.allowAutoConnect {
		t.Fatalf("header %q, auto-connect %v", got, f.allowAutoConnect)
	}
	if v := f.settings.Value["remote-header"]; strings.Contains(v, "s3cret") {
		t.Fatalf("settings show the header value: %q", v)
	}
	for _, bad := range []string{"Authorization: Bearer x\r\nX-Evil: 1", "Authorization: x\ny", "Bad Name: x", "no colon"} {
		out.Reset()
		errb.Reset()
		_, code, ok := parseMCPFlags(nil, &out, &errb, env(map[string]string{"UNDERSTUDY_REMOTE_HEADER": bad}))
		if ok || code != 2 || !strings.Contains(errb.String(), "--remote-header") || strings.Contains(errb.String(), "Evil") || strings.Contains(errb.String(), "Bearer") {
			t.Fatalf("%q: ok %v code %d stderr %q", bad, ok, code, errb.String())
		}
	}
	_, code, ok = parseMCPFlags([]string{"--allow-remote", "host:99999"}, &out, &errb, env(nil))
	if ok || code != 2 {
		t.Fatalf("a bad port was accepted")
	}
}
