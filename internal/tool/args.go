package tool

import "time"

type noArgs struct{ Common }

func ms(v int, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return time.Duration(v) * time.Millisecond
}
