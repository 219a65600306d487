// Command soak drives one understudy server (in process, through its
// dispatcher) for a long time: mixed tool calls from two workers (reads,
// actions, waits) on a page that floods the console (flood.html?console=1:
// 50 × 1 KB console messages per timer tick), with two CDP relay clients
// attached to the same page through electron_relay_endpoint, each with
// Runtime.enable (so they receive the flood) and a Runtime.evaluate every
// 500 ms. It samples the process's RSS and goroutine count, and reports
// p50/p99/max per tool and every failed call.
//
//	go run ./bench/soak -duration 30m       (what `make bench` runs)
//	go run ./bench/soak -duration 2m -sample 10s
//
// It exits 1 when any call failed. The server and the harness share the
// process: RSS is theirs together (Chromium's is reported apart).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/tool"
)

type stats struct {
	mu    sync.Mutex
	lat   map[string][]time.Duration
	fails map[string][]string
}

func (s *stats) add(name string, d time.Duration, failure string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lat[name] = append(s.lat[name], d)
	if failure != "" {
		if len(s.fails[name]) < 5 {
			s.fails[name] = append(s.fails[name], failure)
		} else {
			s.fails[name] = append(s.fails[name], "")
		}
	}
}

type sample struct {
	at         time.Duration
	rssMB      float64
	chromeMB   float64
	goroutines int
}

func main() {
	duration := flag.Duration("duration", 30*time.Minute, "how long to run")
	every := flag.Duration("sample", 30*time.Second, "how often to sample RSS and goroutines")
	chrome := flag.String("chromium", envOr("UNDERSTUDY_CHROMIUM", "/usr/lib/chromium/chromium"), "Chromium binary")
	flag.Parse()
	if err := run(*duration, *every, *chrome); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func envOr(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}

func run(duration, every time.Duration, chrome string) error {
	ctx := context.Background()
	app, err := fixture.Serve(ctx)
	if err != nil {
		return err
	}
	defer app.Close()
	tmp, err := os.MkdirTemp("", "understudy-soak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	srv := tool.New(tool.Config{AllowEvalRenderer: true, FileRoots: []string{tmp}, ArtifactsDir: filepath.Join(tmp, "artifacts")})
	defer srv.Close()
	call := func(name string, args any) (map[string]any, bool, time.Duration) {
		raw, _ := json.Marshal(args)
		cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		start := time.Now()
		res := srv.Dispatch(cctx, name, raw, nil)
		d := time.Since(start)
		var m map[string]any
		_ = json.Unmarshal(res.JSON, &m)
		return m, !res.IsError, d
	}
	m, ok, _ := call("electron_launch", map[string]any{"executablePath": chrome, "args": []string{
		"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/flood.html?console=1")}})
	if !ok {
		return fmt.Errorf("launch: %v", m)
	}
	pid := int(num(m["pid"]))
	if m, ok, _ = call("electron_relay_endpoint", map[string]any{}); !ok {
		return fmt.Errorf("relay: %v", m)
	}
	wsURL, _ := m["ws_url"].(string)

	st := &stats{lat: map[string][]time.Duration{}, fails: map[string][]string{}}
	runCtx, stop := context.WithTimeout(ctx, duration)
	defer stop()
	var wg sync.WaitGroup
	var relayEvents atomic.Int64
	for i := range 2 {
		wg.Go(func() {
			if err := relayClient(runCtx, wsURL, st, &relayEvents); err != nil && runCtx.Err() == nil {
				st.add("relay_client", 0, fmt.Sprintf("client %d: %v", i, err))
			}
		})
	}
	record := func(name string, args any) {
		m, ok, d := call(name, args)
		failure := ""
		if !ok {
			failure = fmt.Sprintf("%v: %v", m["code"], m["error"])
		}
		st.add(name, d, failure)
	}
	// Worker A: reads and actions, in turn.
	wg.Go(func() {
		for i := 0; runCtx.Err() == nil; i++ {
			record("electron_get_text", map[string]any{"selector": "h1"})
			record("electron_snapshot", map[string]any{"maxEntries": 200})
			record("electron_find", map[string]any{"role": "button"})
			record("electron_click", map[string]any{"selector": "#btn"})
			record("electron_type", map[string]any{"selector": "#inp", "text": "soak " + strconv.Itoa(i)})
			record("electron_get_value", map[string]any{"selector": "#inp"})
			record("electron_console_logs", map[string]any{"limit": 20})
			record("electron_eval_renderer", map[string]any{"code": "document.title"})
			if i%10 == 0 {
				record("electron_screenshot", map[string]any{"path": filepath.Join(tmp, "soak.png"), "overwrite": true})
			}
		}
	})
	// Worker B: waits beside A (they share the session).
	wg.Go(func() {
		for runCtx.Err() == nil {
			record("electron_wait_for_selector", map[string]any{"selector": "#progress", "timeoutMs": 5000})
			record("electron_expect_text", map[string]any{"selector": "h1", "equals": "Flood", "timeoutMs": 5000})
			record("electron_exists", map[string]any{"selector": "#never-there"})
			time.Sleep(100 * time.Millisecond)
		}
	})
	// Samples.
	var samples []sample
	start := time.Now()
	take := func() {
		runtime.GC()
		samples = append(samples, sample{at: time.Since(start), rssMB: rssMB(os.Getpid()), chromeMB: groupRSSMB(pid), goroutines: runtime.NumGoroutine()})
	}
	take()
	tick := time.NewTicker(every)
	for loop := true; loop; {
		select {
		case <-tick.C:
			take()
		case <-runCtx.Done():
			loop = false
		}
	}
	tick.Stop()
	wg.Wait()
	take()
	report(duration, samples, st, relayEvents.Load())
	for _, f := range st.fails {
		if len(f) > 0 {
			os.Exit(1)
		}
	}
	return nil
}

func num(v any) float64 { f, _ := v.(float64); return f }

// relayClient attaches to the flood page through the relay, enables
// Runtime there and evaluates every 500 ms, reading everything it is sent.
func relayClient(ctx context.Context, wsURL string, st *stats, events *atomic.Int64) error {
	ws, _, err := websocket.Dial(ctx, wsURL, nil)
	if err != nil {
		return err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(64 << 20)
	var mu sync.Mutex
	waiting := map[int64]chan map[string]any{}
	go func() {
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var f map[string]any
			if json.Unmarshal(b, &f) != nil {
				continue
			}
			if id, ok := f["id"].(float64); ok {
				mu.Lock()
				ch := waiting[int64(id)]
				delete(waiting, int64(id))
				mu.Unlock()
				if ch != nil {
					ch <- f
				}
				continue
			}
			events.Add(1)
		}
	}()
	var next int64
	send := func(sid, method string, params any) (map[string]any, error) {
		next++
		id := next
		ch := make(chan map[string]any, 1)
		mu.Lock()
		waiting[id] = ch
		mu.Unlock()
		msg := map[string]any{"id": id, "method": method, "params": params}
		if sid != "" {
			msg["sessionId"] = sid
		}
		b, _ := json.Marshal(msg)
		if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
			return nil, err
		}
		select {
		case f := <-ch:
			if e, ok := f["error"]; ok {
				return nil, fmt.Errorf("%s: %v", method, e)
			}
			r, _ := f["result"].(map[string]any)
			return r, nil
		case <-time.After(30 * time.Second):
			return nil, fmt.Errorf("%s: no reply in 30 s", method)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	r, err := send("", "Target.getTargets", map[string]any{})
	if err != nil {
		return err
	}
	target := ""
	infos, _ := r["targetInfos"].([]any)
	for _, x := range infos {
		ti, _ := x.(map[string]any)
		if u, _ := ti["url"].(string); ti["type"] == "page" && strings.Contains(u, "/flood.html") {
			target, _ = ti["targetId"].(string)
		}
	}
	if target == "" {
		return fmt.Errorf("no flood page among %d targets", len(infos))
	}
	r, err = send("", "Target.attachToTarget", map[string]any{"targetId": target, "flatten": true})
	if err != nil {
		return err
	}
	sid, _ := r["sessionId"].(string)
	if _, err := send(sid, "Runtime.enable", map[string]any{}); err != nil {
		return err
	}
	for ctx.Err() == nil {
		start := time.Now()
		_, err := send(sid, "Runtime.evaluate", map[string]any{"expression": "1+1", "returnByValue": true})
		failure := ""
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			failure = err.Error()
		}
		st.add("relay Runtime.evaluate", time.Since(start), failure)
		select {
		case <-time.After(500 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	return nil
}

// rssMB reads a process's resident set from /proc.
func rssMB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}

// groupRSSMB sums the RSS of every process in pgid's process group
// (Chromium and its children).
func groupRSSMB(pgid int) float64 {
	if pgid <= 0 {
		return 0
	}
	dirs, _ := os.ReadDir("/proc")
	total := 0.0
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) {
			total += rssMB(pid)
		}
	}
	return total
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return s[i]
}

func report(duration time.Duration, samples []sample, st *stats, relayEvents int64) {
	fmt.Printf("soak: %s of mixed tool calls on flood.html?console=1 with two relay clients (Runtime.enable, evaluate every 500 ms)\n\n", duration)
	fmt.Println("| at | process RSS (MB) | Chromium RSS (MB) | goroutines |")
	fmt.Println("|---|---|---|---|")
	for _, s := range samples {
		fmt.Printf("| %s | %.1f | %.0f | %d |\n", s.at.Round(time.Second), s.rssMB, s.chromeMB, s.goroutines)
	}
	fmt.Println()
	fmt.Println("| call | n | p50 | p99 | max | failed |")
	fmt.Println("|---|---|---|---|---|---|")
	names := make([]string, 0, len(st.lat))
	for n := range st.lat {
		names = append(names, n)
	}
	sort.Strings(names)
	total, failed := 0, 0
	for _, n := range names {
		ds := st.lat[n]
		total += len(ds)
		failed += len(st.fails[n])
		fmt.Printf("| %s | %d | %s | %s | %s | %d |\n", n, len(ds), pct(ds, .5).Round(100*time.Microsecond), pct(ds, .99).Round(100*time.Microsecond), pct(ds, 1).Round(100*time.Microsecond), len(st.fails[n]))
	}
	fmt.Printf("\ncalls: %d, failed: %d, relay events received: %d\n", total, failed, relayEvents)
	for _, n := range names {
		for _, f := range st.fails[n] {
			if f != "" {
				fmt.Printf("failed %s: %s\n", n, f)
			}
		}
	}
}
