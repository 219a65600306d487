package browser

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
)

// tailSize is how much of the child's output a Process keeps for error
// details.
const tailSize = 8 << 10

// tail keeps the last max bytes written to it. Safe for concurrent use.
type tail struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	trunc bool
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.trunc = true
	}
	return len(p), nil
}

// String returns the kept bytes; when older output was dropped, it starts
// at the first whole line.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.trunc {
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i+1 < len(b) {
			b = b[i+1:]
		}
	}
	return string(b)
}

// Markers of the lines a launch waits for.
const (
	devtoolsMarker  = "DevTools listening on "
	debuggerMarker  = "Debugger listening on "
	maxLineForMatch = 16 << 10
)

// listeningURL returns the ws:// URL that follows marker in line, if any.
func listeningURL(line, marker string) (string, bool) {
	i := strings.Index(line, marker)
	if i < 0 {
		return "", false
	}
	rest := line[i+len(marker):]
	if j := strings.IndexAny(rest, " \t\r\n"); j >= 0 {
		rest = rest[:j]
	}
	if !loopbackWS(rest) {
		return "", false // only a loopback ws:// URL is the launched app's
	}
	return rest, true
}

// outputReader drains the child's merged stdout+stderr: it keeps a tail,
// copies to an optional writer, and reports the first DevTools and
// Debugger listening URLs on buffered channels (each sent at most once).
type outputReader struct {
	r         io.Reader
	tail      *tail
	copy      io.Writer // may be nil
	devtools  chan string
	inspector chan string
}

func newOutputReader(r io.Reader, copyTo io.Writer) *outputReader {
	return &outputReader{
		r:         r,
		tail:      newTail(tailSize),
		copy:      copyTo,
		devtools:  make(chan string, 1),
		inspector: make(chan string, 1),
	}
}

// run reads until EOF or a read error (the pipe closed under it).
func (o *outputReader) run() {
	br := bufio.NewReaderSize(o.r, maxLineForMatch)
	sawDevtools, sawInspector := false, false
	copyOK := o.copy != nil
	midLine := false // the previous chunk was cut by a full buffer
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			_, _ = o.tail.Write(chunk)
			if copyOK {
				if _, werr := o.copy.Write(chunk); werr != nil {
					copyOK = false // a broken debug copy never stops the drain
				}
			}
			// A chunk cut by a full buffer is part of an over-long line: not
			// a line we wait for.
			cut := errors.Is(err, bufio.ErrBufferFull)
			if !cut && !midLine {
				line := string(chunk)
				if !sawDevtools {
					if u, ok := listeningURL(line, devtoolsMarker); ok {
						sawDevtools = true
						o.devtools <- u
					}
				}
				if !sawInspector {
					if u, ok := listeningURL(line, debuggerMarker); ok {
						sawInspector = true
						o.inspector <- u
					}
				}
			}
			midLine = cut
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}
