package relay

import (
	"fmt"
	"os"
	"sync"
)

// UNDERSTUDY_RELAY_RECORD=FILE appends "kind method" for every command the
// guard sees to FILE: how allow.go's lists were recorded from the compat
// suites (see the comment there).
func init() {
	path := os.Getenv("UNDERSTUDY_RELAY_RECORD")
	if path == "" {
		return
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	recordMethod = func(kind sockKind, method string) {
		line := kind.String() + " " + method
		mu.Lock()
		defer mu.Unlock()
		if seen[line] {
			return
		}
		seen[line] = true
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintln(f, line)
			_ = f.Close()
		}
	}
}
