// Command coldstart measures what an MCP host waits for when it starts
// understudy: spawn the binary, write an initialize request on its stdin,
// read the reply line on stdout. It does the same for a bare go-sdk stdio
// server with one tool (./bare), interleaved in one run so the machine's
// load falls on both alike, and prints medians, p90 and the ratio.
//
//	go run ./bench/coldstart [-n 40]
//
// Both binaries are built as the Makefile's build target builds understudy:
// CGO_ENABLED=0, -trimpath, -ldflags '-s -w -X main.version=…'.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	n := flag.Int("n", 40, "spawns of each binary")
	old := flag.String("old", "", "also spawn this prebuilt binary (e.g. understudy built from main), interleaved, for a before/after")
	flag.Parse()
	if err := run(*n, *old); err != nil {
		fmt.Fprintln(os.Stderr, "coldstart:", err)
		os.Exit(1)
	}
}

func run(n int, old string) error {
	if n < 1 {
		return errors.New("-n must be at least 1")
	}
	dir, err := os.MkdirTemp("", "coldstart-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ours, bare := filepath.Join(dir, "understudy"), filepath.Join(dir, "bare")
	if err := build(ours, "./cmd/understudy"); err != nil {
		return err
	}
	if err := build(bare, "./bench/coldstart/bare"); err != nil {
		return err
	}
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"coldstart","version":"0"}}}`+"\n",
		mcp.SupportedProtocolVersions()[0])
	bins := []string{ours, bare}
	if old != "" {
		bins = append(bins, old)
	}
	// One warm-up each: the first exec of a fresh file pays for the page cache.
	for _, bin := range bins {
		if _, err := spawn(bin, req); err != nil {
			return err
		}
	}
	ds := make(map[string][]time.Duration)
	for i := range n {
		for j := range bins { // rotate who goes first
			bin := bins[(i+j)%len(bins)]
			d, err := spawn(bin, req)
			if err != nil {
				return err
			}
			ds[bin] = append(ds[bin], d)
		}
	}
	dOurs, dBare := ds[ours], ds[bare]
	mo, mb := quantile(dOurs, 0.5), quantile(dBare, 0.5)
	fmt.Printf("spawn to initialize reply, %d interleaved runs each\n", n)
	fmt.Printf("understudy  median %6.2f ms  p90 %6.2f ms\n", ms(mo), ms(quantile(dOurs, 0.9)))
	fmt.Printf("bare go-sdk median %6.2f ms  p90 %6.2f ms\n", ms(mb), ms(quantile(dBare, 0.9)))
	fmt.Printf("ratio (medians) %.2fx\n", float64(mo)/float64(mb))
	if old != "" {
		mold := quantile(ds[old], 0.5)
		fmt.Printf("-old        median %6.2f ms  p90 %6.2f ms  ratio to bare %.2fx\n", ms(mold), ms(quantile(ds[old], 0.9)), float64(mold)/float64(mb))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average %s\n", strings.Join(strings.Fields(string(b))[:3], " "))
	}
	return nil
}

func build(out, pkg string) error {
	version := "dev"
	if v, err := exec.Command("git", "describe", "--tags", "--always", "--dirty").Output(); err == nil {
		version = strings.TrimSpace(string(v))
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// spawn starts bin, writes req on its stdin and returns the time from just
// before the start to the arrival of the reply line; then kills the process.
func spawn(bin, req string) (time.Duration, error) {
	cmd := exec.Command(bin)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	if _, err := io.WriteString(in, req); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	d := time.Since(t0)
	if err != nil {
		return 0, fmt.Errorf("%s: reading the reply: %v", filepath.Base(bin), err)
	}
	if !strings.Contains(line, `"result"`) {
		return 0, fmt.Errorf("%s: initialize failed: %s", filepath.Base(bin), line)
	}
	return d, nil
}

// quantile is the nearest-rank quantile q of ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
