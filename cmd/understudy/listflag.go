package main

import "strings"

// listFlag is a repeatable string flag; a value may also hold several
// entries separated by commas.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

func (listFlag) repeatable() {}

// headerFlag is a repeatable "Name: value" flag (--remote-header). Values
// are secrets: never printed (secretFlags), and a comma does not split
// them.
type headerFlag []string

func (h *headerFlag) String() string { return strings.Join(*h, "\n") }

func (h *headerFlag) Set(v string) error {
	*h = append(*h, v)
	return nil
}

func (headerFlag) repeatable() {}
