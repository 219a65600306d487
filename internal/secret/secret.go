// Package secret is the type of a value that must not be shown: a password
// field's value, a cookie's value, a credential header. A String encodes
// itself as [redacted] in every encoding the server writes (JSON, text,
// fmt, log/slog), so a result, a trace, a HAR or a storageState file that
// holds one redacts it by construction. Code that must use the value (to
// compare it, to send it back to the browser) calls Reveal; a call the
// operator allowed to reveal (--allow-secrets and reveal:true) encodes it
// with Shown.
package secret

import (
	"encoding/json"
	"fmt"
	"log/slog"
)

// Redacted is what a secret encodes as.
const Redacted = "[redacted]"

// String is a string that may be a secret. The zero value is an empty
// plain string.
type String struct {
	v      string
	mask   string // what a masked secret encodes as unless shown
	secret bool   // a secret: encoded as Redacted (or mask) unless shown
	masked bool   // a secret in part: encoded as mask unless shown
	shown  bool   // revealed for a call allowed to reveal
}

// New is the secret v.
func New(v string) String { return String{v: v, secret: true} }

// Masked is v, which holds secrets in part (a request body with a password
// field): it encodes as mask, v with those parts replaced by Redacted,
// unless shown. Masked(v, v) is Plain(v).
func Masked(v, mask string) String {
	if v == mask {
		return Plain(v)
	}
	return String{v: v, mask: mask, secret: true, masked: true}
}

// Plain is v, which is no secret.
func Plain(v string) String { return String{v: v} }

// Maybe is v, a secret when isSecret.
func Maybe(v string, isSecret bool) String { return String{v: v, secret: isSecret} }

// Reveal is the value itself, for code that must use it (compare it, send
// it to the browser). Never put what it returns in an output.
func (s String) Reveal() string { return s.v }

// IsSecret reports whether s is a secret.
func (s String) IsSecret() bool { return s.secret }

// Shown is s encoded as its real value when reveal is true: only for a call
// the operator allowed to reveal (--allow-secrets and reveal:true).
func (s String) Shown(reveal bool) String {
	if reveal {
		s.shown = true
	}
	return s
}

// Part is v, a part of s (one line of a folded header): a secret, and
// shown, when s is.
func (s String) Part(v string) String { return String{v: v, secret: s.secret, shown: s.shown} }

// IsZero reports whether the value is empty (for omitzero).
func (s String) IsZero() bool { return s.v == "" }

// Len is the length of the value in bytes (for budgets and size hints).
func (s String) Len() int { return len(s.v) }

// text is what every encoding writes.
func (s String) text() string {
	if s.secret && !s.shown {
		if s.masked {
			return s.mask
		}
		return Redacted
	}
	return s.v
}

// String implements fmt.Stringer.
func (s String) String() string { return s.text() }

// GoString implements fmt.GoStringer (%#v).
func (s String) GoString() string { return fmt.Sprintf("%q", s.text()) }

// Format implements fmt.Formatter: every verb formats the encoded text.
func (s String) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprint(f, s.GoString())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), s.text())
}

// LogValue implements slog.LogValuer.
func (s String) LogValue() slog.Value { return slog.StringValue(s.text()) }

// MarshalJSON writes [redacted] for a secret not shown.
func (s String) MarshalJSON() ([]byte, error) { return json.Marshal(s.text()) }

// MarshalText is MarshalJSON's text twin (map keys, other encoders).
func (s String) MarshalText() ([]byte, error) { return []byte(s.text()), nil }

// UnmarshalJSON reads a JSON string as a secret: a value read from outside
// (a protocol answer, a file) is secret until code says otherwise.
func (s *String) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = New(v)
	return nil
}
