package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// treeRSS sums VmRSS of pid and all its descendants, in MiB, and returns how
// many processes it counted. Linux only; 0 elsewhere.
func treeRSS(pid int) (float64, int) {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		parent, _ := strconv.Atoi(f[1])
		children[parent] = append(children[parent], child)
	}
	var kb float64
	n := 0
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if v, ok := statusKB(p, "VmRSS:"); ok {
			kb += v
			n++
		}
		queue = append(queue, children[p]...)
	}
	return kb / 1024, n
}

// statusKB reads one "Name:  N kB" line of /proc/PID/status.
func statusKB(pid int, key string) (float64, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, key); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			v, err := strconv.ParseFloat(f[0], 64)
			return v, err == nil
		}
	}
	return 0, false
}

// loadAvg returns the first three fields of /proc/loadavg.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func load1() float64 {
	f := strings.Fields(loadAvg())
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// waitQuiet waits until the 1-minute load average is below limit, at most
// max; it reports whether it got there.
func waitQuiet(limit float64, max time.Duration, log func(string, ...any)) bool {
	deadline := time.Now().Add(max)
	for {
		l := load1()
		if l < limit {
			return true
		}
		if !time.Now().Before(deadline) {
			log("load average still %.2f after %s; running anyway", l, max)
			return false
		}
		log("load average %.2f ≥ %.2f, waiting for a quieter machine", l, limit)
		time.Sleep(15 * time.Second)
	}
}
