package main

import (
	"fmt"
	"net/http"
	"strings"
)

// parseRemoteHeaders reads --remote-header "Name: value" entries. A value
// with CR, LF or NUL (a header injection) is refused, as is a name that is
// not an HTTP token; errors name the header, never its value.
func parseRemoteHeaders(list []string) (http.Header, error) {
	if len(list) == 0 {
		return nil, nil
	}
	h := http.Header{}
	for i, raw := range list {
		name, value, ok := strings.Cut(raw, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--remote-header #%d is not \"Name: value\"", i+1)
		}
		if !validHeaderName(name) {
			return nil, fmt.Errorf("--remote-header #%d: %q is not a header name", i+1, name)
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, fmt.Errorf("--remote-header %s: the value holds a line break or NUL, refused", name)
		}
		value = strings.TrimSpace(value)
		for _, r := range value {
			if (r < ' ' && r != '\t') || r == 0x7f {
				return nil, fmt.Errorf("--remote-header %s: the value holds control characters, refused", name)
			}
		}
		h.Add(name, value)
	}
	return h, nil
}

// validHeaderName reports whether name is an HTTP token (RFC 9110).
func validHeaderName(name string) bool {
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return name != ""
}
