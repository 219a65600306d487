// Command coldstart measures what an MCP host waits for when it starts
// understudy: spawn the binary, write an initialize request on its stdin,
// read the reply line on stdout. It does the same for a bare go-sdk stdio
// server with one tool (./bare), interleaved in one run so the machine's
// load falls on both alike, and prints medians, p90 and the ratio.
//
// It also times what a host waits for before it can show the tools: the
// same spawn and initialize, then notifications/initialized and tools/list,
// until the list arrives (understudy registers its tools on the first
// request after initialize, ADR-026, so this is where their cost shows).
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
		if _, err := spawn(bin, req, true); err != nil {
			return err
		}
	}
	type key struct {
		bin  string
		list bool
	}
	ds := make(map[key][]time.Duration)
	for i := range n {
		for _, list := range []bool{false, true} {
			for j := range bins { // rotate who goes first
				bin := bins[(i+j)%len(bins)]
				d, err := spawn(bin, req, list)
				if err != nil {
					return err
				}
				ds[key{bin, list}] = append(ds[key{bin, list}], d)
			}
		}
	}
	for _, list := range []bool{false, true} {
		if list {
			fmt.Printf("\nspawn to tools/list reply (initialize, notifications/initialized, tools/list), %d interleaved runs each\n", n)
		} else {
			fmt.Printf("spawn to initialize reply, %d interleaved runs each\n", n)
		}
		dOurs, dBare := ds[key{ours, list}], ds[key{bare, list}]
		mo, mb := quantile(dOurs, 0.5), quantile(dBare, 0.5)
		fmt.Printf("understudy  median %6.2f ms  p90 %6.2f ms\n", ms(mo), ms(quantile(dOurs, 0.9)))
		fmt.Printf("bare go-sdk median %6.2f ms  p90 %6.2f ms\n", ms(mb), ms(quantile(dBare, 0.9)))
		fmt.Printf("ratio (medians) %.2fx\n", float64(mo)/float64(mb))
		if old != "" {
			dOld := ds[key{old, list}]
			mold := quantile(dOld, 0.5)
			fmt.Printf("-old        median %6.2f ms  p90 %6.2f ms  ratio to bare %.2fx\n", ms(mold), ms(quantile(dOld, 0.9)), float64(mold)/float64(mb))
		}
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
// before the start to the arrival of the reply line; with list, it then
// writes notifications/initialized and tools/list and waits for that reply
// instead. Then it kills the process.
func spawn(bin, req string, list bool) (time.Duration, error) {
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
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("%s: reading the reply: %v", filepath.Base(bin), err)
	}
	if !strings.Contains(line, `"result"`) {
		return 0, fmt.Errorf("%s: initialize failed: %s", filepath.Base(bin), line)
	}
	if !list {
		return time.Since(t0), nil
	}
	const next = `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}` + "\n"
	if _, err := io.WriteString(in, next); err != nil {
		return 0, err
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return 0, fmt.Errorf("%s: reading tools/list: %v", filepath.Base(bin), err)
		}
		if !strings.Contains(line, `"id":2`) {
			continue // a notification
		}
		d := time.Since(t0)
		if !strings.Contains(line, `"tools":[{`) {
			return 0, fmt.Errorf("%s: tools/list failed: %.200s", filepath.Base(bin), line)
		}
		return d, nil
	}
}

// quantile is the nearest-rank quantile q of ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
