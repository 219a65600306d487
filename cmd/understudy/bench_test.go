package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

const initReq = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}` + "\n"

// coldStart runs the binary, sends initialize and returns the time to the
// result, plus the running process for further measurement.
func coldStart(b *testing.B, bin string) (time.Duration, *exec.Cmd, *bufio.Reader, func(string)) {
	cmd := exec.Command(bin)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if _, err := in.Write([]byte(initReq)); err != nil {
		b.Fatal(err)
	}
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	d := time.Since(t0)
	if err != nil || !strings.Contains(line, `"result"`) {
		b.Fatalf("initialize: %v %q", err, line)
	}
	send := func(s string) { _, _ = in.Write([]byte(s + "\n")) }
	return d, cmd, r, send
}

// BenchmarkColdStartInitialize: process start to the MCP initialize result
// (target ≤ 30 ms median).
func BenchmarkColdStartInitialize(b *testing.B) {
	bin := binary(b)
	var ds []time.Duration
	for i := 0; i < b.N; i++ {
		d, cmd, _, _ := coldStart(b, bin)
		ds = append(ds, d)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	b.ReportMetric(float64(median(ds).Microseconds())/1000, "ms-median")
}

// BenchmarkServerRSS reports the server's resident memory idle and with one
// attached session (target ≤ 25 MB each).
func BenchmarkServerRSS(b *testing.B) {
	bin := binary(b)
	br := chromiumtest.Start(b.Context(), b)
	var idle, attached []float64
	for i := 0; i < b.N; i++ {
		_, cmd, r, send := coldStart(b, bin)
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		time.Sleep(100 * time.Millisecond)
		idle = append(idle, rssMB(cmd.Process.Pid))
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"electron_attach","arguments":{"port":%d}}}`, br.Port))
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				b.Fatal(err)
			}
			var m struct {
				ID int `json:"id"`
			}
			_ = json.Unmarshal([]byte(line), &m)
			if m.ID == 2 {
				if !strings.Contains(line, `\"ok\":true`) && !strings.Contains(line, `"ok":true`) {
					b.Fatalf("attach failed: %s", line)
				}
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
		attached = append(attached, rssMB(cmd.Process.Pid))
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	b.ReportMetric(maxOf(idle), "MB-idle")
	b.ReportMetric(maxOf(attached), "MB-attached")
}

func rssMB(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return -1
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		if x > m {
			m = x
		}
	}
	return m
}
