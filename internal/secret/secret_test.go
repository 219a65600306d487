package secret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestEveryEncodingRedacts(t *testing.T) {
	s := New("hunter2")
	type rec struct {
		Pw  String            `json:"pw"`
		Map map[string]String `json:"map"`
	}
	b, _ := json.Marshal(rec{Pw: s, Map: map[string]String{"k": s}})
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "pw", s)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "pw", s)
	txt, _ := s.MarshalText()
	for _, out := range []string{string(b), buf.String(), fmt.Sprint(s), fmt.Sprintf("%v %s %q %x %#v %+v", s, s, s, s, s, rec{Pw: s}), string(txt), s.String()} {
		if strings.Contains(out, "hunter2") || !strings.Contains(out, Redacted) && !strings.Contains(out, fmt.Sprintf("%x", Redacted)) {
			t.Errorf("leaked or not redacted: %s", out)
		}
	}
	if s.Reveal() != "hunter2" {
		t.Fatal("Reveal")
	}
	if b, _ := json.Marshal(s.Shown(true)); string(b) != `"hunter2"` {
		t.Fatalf("shown: %s", b)
	}
	if b, _ := json.Marshal(s.Shown(false)); string(b) != `"[redacted]"` {
		t.Fatalf("not shown: %s", b)
	}
	if b, _ := json.Marshal(Plain("a")); string(b) != `"a"` {
		t.Fatalf("plain: %s", b)
	}
	var back String
	if err := json.Unmarshal([]byte(`"tok"`), &back); err != nil || !back.IsSecret() || back.Reveal() != "tok" {
		t.Fatalf("read back: %#v %v", back, err)
	}
}

func TestMaskedEncodesItsMask(t *testing.T) {
	s := Masked(`{"user":"bob","password":"hunter2"}`, `{"user":"bob","password":"[redacted]"}`)
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), "hunter2") || !strings.Contains(string(b), `bob`) || fmt.Sprint(s) != `{"user":"bob","password":"[redacted]"}` {
		t.Fatalf("masked: %s / %v", b, s)
	}
	if !s.IsSecret() || !strings.Contains(s.Shown(true).String(), "hunter2") || s.Len() != len(s.Reveal()) {
		t.Fatalf("shown: %v", s.Shown(true))
	}
	if p := Masked("a", "a"); p.IsSecret() {
		t.Fatal("a value without secret parts is plain")
	}
}
