package browser

import "testing"

// TestIsLoopbackHost is the table of the one loopback rule (ADR-004). The
// names that merely look like loopback are the regression: mainproc once
// accepted any host starting with "127.", so 127.example.com passed.
func TestIsLoopbackHost(t *testing.T) {
	for _, c := range []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true},
		{"127.1.2.3", true},
		{"127.255.255.254", true},
		{"::1", true},
		{"[::1]", true},
		{"0:0:0:0:0:0:0:1", true},
		{"::ffff:127.0.0.1", true},
		{"localhost", true},
		{"LocalHost", true},
		{"localhost.", true},

		{"", false},
		{"127.example.com", false},
		{"127.0.0.1.nip.io", false},
		{"localhost.evil.com", false},
		{"evil.localhost", false},
		{"127.0.0.1:9222", false},
		{"[::1]:9222", false},
		{"localhost:9222", false},
		{"0.0.0.0", false},
		{"::", false},
		{"[::]", false},
		{"10.0.0.1", false},
		{"192.168.1.1", false},
		{"::ffff:10.0.0.1", false},
		{"fe80::1%lo", false},
		{"::1%lo", false},
		{"[::1", false},
		{"::1]", false},
		{"[127.0.0.1]", false},
		{"[localhost]", false},
		{"127.1", false},
		{"2130706433", false},
		{"0x7f.0.0.1", false},
		{"example.com", false},
	} {
		if got := IsLoopbackHost(c.host); got != c.want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", c.host, got, c.want)
		}
	}
}
