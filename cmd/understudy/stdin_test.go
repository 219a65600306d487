package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// stdioServer is the MCP server of runMCP, in process, on pipes.
type stdioServer struct {
	tb    testing.TB
	in    *io.PipeWriter
	lines chan string // every stdout line
	done  chan int    // runMCP's exit code
}

func startStdio(tb testing.TB) *stdioServer {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioServer{tb: tb, in: inW, lines: make(chan string, 1024), done: make(chan int, 1)}
	go func() {
		code := runMCP(nil, inR, outW, io.Discard)
		_ = outW.Close()
		s.done <- code
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, outR)
	}()
	tb.Cleanup(func() {
		_ = inW.Close()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			tb.Error("the server did not end after stdin closed")
		}
	})
	return s
}

// write sends raw bytes; false when the server no longer reads.
func (s *stdioServer) write(b []byte) bool {
	errc := make(chan error, 1)
	go func() { _, err := s.in.Write(b); errc <- err }()
	select {
	case err := <-errc:
		return err == nil
	case <-time.After(20 * time.Second):
		return false
	}
}

type rpcLine struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// next returns the next stdout line, which must be one JSON-RPC 2.0 message.
func (s *stdioServer) next(what string) (rpcLine, bool) {
	s.tb.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.tb.Errorf("waiting for %s: stdout closed (the server ended)", what)
			return rpcLine{}, false
		}
		var m rpcLine
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
			s.tb.Errorf("stdout line is not JSON-RPC 2.0: %.200q (%v)", l, err)
		}
		return m, true
	case <-time.After(20 * time.Second):
		s.tb.Errorf("timed out waiting for %s", what)
		return rpcLine{}, false
	}
}

// until reads lines until one answers id.
func (s *stdioServer) until(id string, what string) (rpcLine, bool) {
	s.tb.Helper()
	for {
		m, ok := s.next(what)
		if !ok {
			return m, false
		}
		if string(m.ID) == id && m.Method == "" {
			return m, true
		}
	}
}

const initLine = `{"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n"

// TestStdinMalformedLines: each malformed line gets a JSON-RPC error and the
// server keeps serving.
func TestStdinMalformedLines(t *testing.T) {
	s := startStdio(t)
	if !s.write([]byte(initLine)) {
		t.Fatal("initialize not read")
	}
	if m, ok := s.until(`"init-1"`, "the initialize reply"); !ok || m.Error != nil {
		t.Fatalf("initialize: %+v", m)
	}
	s.write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	huge := append([]byte(`{"jsonrpc":"2.0","id":99,"method":"ping","params":{"x":"`), bytes.Repeat([]byte("a"), MaxStdinLine+10)...)
	huge = append(huge, `"}}`...)
	cases := []struct {
		name string
		line []byte
		code int
		id   string
	}{
		{"garbage", []byte("hello world"), rpcParseError, "null"},
		{"truncated JSON", []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"`), rpcParseError, "null"},
		{"NUL bytes", []byte("\x00\x00\x00"), rpcParseError, "null"},
		{"NUL inside JSON", []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\x00ng\"}"), rpcParseError, "null"},
		{"invalid UTF-8", []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}"), rpcParseError, "null"},
		{"batch", []byte(`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`), rpcInvalidRequest, "null"},
		{"empty batch", []byte(`[]`), rpcInvalidRequest, "null"},
		{"a number", []byte(`42`), rpcInvalidRequest, "null"},
		{"null", []byte(`null`), rpcInvalidRequest, "null"},
		{"jsonrpc 1.0", []byte(`{"jsonrpc":"1.0","id":3,"method":"ping"}`), rpcInvalidRequest, "3"},
		{"no jsonrpc", []byte(`{"id":4,"method":"ping"}`), rpcInvalidRequest, "4"},
		{"object id", []byte(`{"jsonrpc":"2.0","id":{},"method":"ping"}`), rpcInvalidRequest, "null"},
		{"bool id", []byte(`{"jsonrpc":"2.0","id":true,"method":"ping"}`), rpcInvalidRequest, "null"},
		{"numeric method", []byte(`{"jsonrpc":"2.0","id":5,"method":7}`), rpcInvalidRequest, "5"},
		{"string params", []byte(`{"jsonrpc":"2.0","id":6,"method":"ping","params":"x"}`), rpcInvalidRequest, "6"},
		{"response with a string error", []byte(`{"jsonrpc":"2.0","id":7,"error":"x"}`), rpcInvalidRequest, "7"},
		{"neither method nor id", []byte(`{"jsonrpc":"2.0"}`), rpcInvalidRequest, "null"},
		{"deep nesting", []byte(`{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`), rpcInvalidRequest, "8"},
		{"deep nesting, 100000", []byte(`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`), rpcInvalidRequest, `"deep"`},
		{"deep nesting, two ids", []byte(`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping","params":{"a":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}}`), rpcInvalidRequest, "null"},
		{"deep nesting, object id", []byte(`{"jsonrpc":"2.0","id":{"x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `},"method":"ping"}`), rpcInvalidRequest, "null"},
		{"deep nesting, unbalanced", []byte(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"a":` + strings.Repeat("[", 100000) + `}}`), rpcParseError, "null"},
		{"deep nesting, trailing value", []byte(`{"jsonrpc":"2.0","id":9,"params":{"a":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}} {}`), rpcParseError, "null"},
		{"oversized line", huge, rpcInvalidRequest, "null"},
	}
	for i, c := range cases {
		if !s.write(append(c.line, '\n')) {
			t.Fatalf("%s: the server stopped reading", c.name)
		}
		m, ok := s.next("the error for " + c.name)
		if !ok {
			t.Fatalf("%s ended the server", c.name)
		}
		if m.Error == nil || m.Error.Code != c.code || string(m.ID) != c.id {
			t.Errorf("%s: %+v (error %+v), want code %d and id %s", c.name, m, m.Error, c.code, c.id)
		}
		// Still serving.
		id := fmt.Sprintf(`"after-%d"`, i)
		s.write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}` + "\n"))
		if m, ok := s.until(id, "tools/list after "+c.name); !ok || m.Error != nil || !bytes.Contains(m.Result, []byte("electron_launch")) {
			t.Fatalf("after %s, tools/list: %+v", c.name, m)
		}
	}
}

// TestStdinCallBeforeInitialize: a request before initialize gets a JSON-RPC
// error with a code (go-sdk answered code 0), and the server then
// initializes normally.
func TestStdinCallBeforeInitialize(t *testing.T) {
	s := startStdio(t)
	s.write([]byte(`{"jsonrpc":"2.0","id":"early","method":"tools/call","params":{"name":"electron_status","arguments":{}}}` + "\n"))
	m, ok := s.until(`"early"`, "the reply to tools/call before initialize")
	if !ok || m.Error == nil || m.Error.Code != rpcInvalidRequest {
		t.Fatalf("tools/call before initialize: %+v (error %+v), want code %d", m, m.Error, rpcInvalidRequest)
	}
	s.write([]byte(`{"jsonrpc":"2.0","id":"early-list","method":"tools/list"}` + "\n"))
	if m, ok := s.until(`"early-list"`, "tools/list before initialize"); !ok || m.Error == nil || m.Error.Code == 0 {
		t.Fatalf("tools/list before initialize: %+v (error %+v)", m, m.Error)
	}
	s.write([]byte(initLine))
	if m, ok := s.until(`"init-1"`, "the initialize reply"); !ok || m.Error != nil {
		t.Fatalf("initialize: %+v", m)
	}
}

// FuzzStdin: any bytes, then a newline and a valid initialize: the server
// answers the initialize and every stdout line is JSON-RPC 2.0.
func FuzzStdin(f *testing.F) {
	for _, seed := range []string{
		"", "hello", "\x00", "[]", "[1,2]", `{"jsonrpc":"1.0"}`, `{"jsonrpc":"2.0","id":{},"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}`,
		`{"jsonrpc":"2.0","id":1e999,"method":"ping"}`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","ID":{},"id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"nope"}}`,
		`{"jsonrpc":"2.0","id":"a","method":"initialize","params":[]}`, "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"ping\"}",
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s := startStdio(t)
		if !s.write(append(append(in, '\n'), initLine...)) {
			t.Fatal("the server stopped reading")
		}
		if _, ok := s.until(`"init-1"`, "the initialize reply"); !ok {
			t.Fatalf("no reply to initialize after %q", in)
		}
	})
}
