package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callTimeout bounds one tool call; a slower call counts as failed.
const callTimeout = 60 * time.Second

// server is one running MCP server and our client session to it.
type server struct {
	*adapter
	cmd     *exec.Cmd
	stderr  *os.File
	session *mcp.ClientSession
	tools   map[string]*mcp.Tool
	pageID  int // chrome-devtools-mcp's page id of the shared page
	ctx     context.Context
}

// startServer runs the adapter's command as an MCP stdio server in dir.
func startServer(ctx context.Context, a *adapter, dir string) (*server, error) {
	cmd := exec.Command(a.argv[0], a.argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), a.env...)
	stderr, err := os.CreateTemp(dir, "stderr-*.log")
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "understudy-bench", Version: "0"}, nil)
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	session, err := client.Connect(cctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		_ = stderr.Close()
		return nil, fmt.Errorf("%s: connect: %w; stderr: %s", a.name, err, tail(stderr.Name()))
	}
	s := &server{adapter: a, cmd: cmd, stderr: stderr, session: session, tools: map[string]*mcp.Tool{}, ctx: ctx}
	for t, err := range session.Tools(cctx, nil) {
		if err != nil {
			s.close()
			return nil, fmt.Errorf("%s: list tools: %w", a.name, err)
		}
		s.tools[t.Name] = t
	}
	if err := a.setup(s); err != nil {
		s.close()
		return nil, fmt.Errorf("%s: select the page: %w; stderr: %s", a.name, err, tail(stderr.Name()))
	}
	return s, nil
}

// close ends the session; the transport closes the server's stdin, waits
// for it to exit and kills it after its TerminateDuration.
func (s *server) close() {
	if s.session != nil {
		_ = s.session.Close()
	}
	_ = s.stderr.Close()
}

// pid is the server's process id (node for the peers).
func (s *server) pid() int {
	if s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// result is one timed tool call.
type result struct {
	d    time.Duration
	text string // every text content joined
	err  error  // transport error, IsError or ok:false
}

// chars is the size of what the agent reads: the text content, in
// characters.
func (r result) chars() int { return utf8.RuneCountInString(r.text) }

// do makes one timed call. The clock runs from the request to the decoded
// response on the client side, so it includes the stdio round trip.
func (s *server) do(c call) result {
	ctx, cancel := context.WithTimeout(s.ctx, callTimeout)
	defer cancel()
	t0 := time.Now()
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
	d := time.Since(t0)
	if err != nil {
		return result{d: d, err: err}
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(tc.Text)
		}
	}
	r := result{d: d, text: b.String()}
	if res.IsError {
		r.err = errors.New(firstLine(r.text))
	} else if notOK(r.text) {
		r.err = errors.New(firstLine(r.text))
	}
	return r
}

// ping times one MCP ping request.
func (s *server) ping() result {
	ctx, cancel := context.WithTimeout(s.ctx, callTimeout)
	defer cancel()
	t0 := time.Now()
	err := s.session.Ping(ctx, nil)
	return result{d: time.Since(t0), err: err}
}

// mustCall makes an untimed call and returns its text or its failure.
func (s *server) mustCall(c call) (string, error) {
	r := s.do(c)
	if r.err != nil {
		return r.text, fmt.Errorf("%s: %w", c.tool, r.err)
	}
	return r.text, nil
}

// notOK reports an understudy envelope with ok:false.
func notOK(text string) bool {
	if !strings.HasPrefix(text, `{"ok":false`) {
		return false
	}
	var e struct {
		OK bool `json:"ok"`
	}
	return json.Unmarshal([]byte(text), &e) == nil && !e.OK
}

// failCode shortens a failure for a table cell: an understudy error code when
// there is one, else the first words of the message.
func failCode(err error) string {
	msg := err.Error()
	var e struct {
		Code string `json:"code"`
	}
	if i := strings.Index(msg, "{"); i >= 0 && json.Unmarshal([]byte(msg[i:]), &e) == nil && e.Code != "" {
		return e.Code
	}
	if len(msg) > 60 {
		msg = msg[:60] + "…"
	}
	return msg
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// tail returns the end of a log file, on one line.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 400 {
		s = "…" + s[len(s)-400:]
	}
	if s == "" {
		return "(empty)"
	}
	return s
}
