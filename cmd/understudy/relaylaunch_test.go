package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestRelayLaunchKeepsAppOutput (issue 29): relay --launch Chromium keeps
// the browser's own log lines (about thirty dbus ERROR lines here) off
// stderr by default, as electron_launch does; --log-level debug copies them
// into the log (--log-file).
func TestRelayLaunchKeepsAppOutput(t *testing.T) {
	chrome := chromiumtest.Require(t)
	logFile := filepath.Join(t.TempDir(), "relay.log")
	for _, c := range []struct {
		name  string
		extra []string
	}{
		{"default", nil},
		{"debug", []string{"--log-level", "debug", "--log-file", logFile}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary(t), append(append([]string{"relay"}, c.extra...), "--launch", chrome)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					if strings.HasPrefix(strings.TrimSpace(sc.Text()), "ws:") {
						done <- nil
						_, _ = bufio.NewReader(out).WriteTo(&bytes.Buffer{})
						return
					}
				}
				done <- sc.Err()
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("the relay did not start; stderr:\n%s", stderr.String())
			}
			time.Sleep(500 * time.Millisecond) // let the browser print what it prints at start
			_ = cmd.Process.Signal(syscall.SIGINT)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("relay: %v\n%s", err, stderr.String())
			}
			if strings.Contains(stderr.String(), "ERROR:") || strings.Contains(stderr.String(), "DevTools listening") {
				t.Fatalf("the browser's output reached stderr:\n%s", stderr.String())
			}
			if c.name == "debug" {
				b, _ := os.ReadFile(logFile)
				if !strings.Contains(string(b), "DevTools listening on ws://") {
					t.Fatalf("--log-level debug --log-file: the log lacks the browser's output:\n%s", b)
				}
			}
		})
	}
}
