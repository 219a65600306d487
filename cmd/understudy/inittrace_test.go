package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// maxPackageInitBytes bounds what one of our packages may allocate at
// init. A table of a hundred entries is about 10 KB: build it on first use
// (sync.OnceValue), as the error registry and the key tables are, since
// every start of the binary pays for package init before it can answer
// initialize (issue 11, docs/adr/026).
const maxPackageInitBytes = 8 << 10

// TestPackageInitStaysSmall runs the binary with GODEBUG=inittrace=1 and
// fails when a package of this module allocates more than
// maxPackageInitBytes at init. Bytes, unlike the clock, are the same on
// every machine.
func TestPackageInitStaysSmall(t *testing.T) {
	cmd := exec.Command(binary(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("understudy version: %v\n%s", err, stderr.String())
	}
	seen := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/…/internal/tool @25 ms, 0.064 ms clock, 7264 bytes, 12 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/understudy-dev/understudy/") {
			continue
		}
		seen++
		n, err := strconv.Atoi(f[7])
		if err != nil || f[8] != "bytes," {
			t.Fatalf("cannot read an inittrace line: %q", sc.Text())
		}
		if n > maxPackageInitBytes {
			t.Errorf("%s allocates %d bytes at init (at most %d): build its tables on first use", f[1], n, maxPackageInitBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("no inittrace line of this module's packages in:\n%s", stderr.String())
	}
}
