package capture

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// Message is one record a renderer reported: a console API call, an
// uncaught exception, or one of Chromium's own log entries.
type Message struct {
	// Type is the console method (log, info, warning, error, debug, …),
	// "exception", or a log entry's level (verbose becomes debug).
	Type string
	// Text is the message as the console shows it (not clipped).
	Text string
	// Source is console, exception, or a log entry's source (network,
	// javascript, security, deprecation, violation, intervention, …).
	Source string
	URL    string
	// Line is 1-based; 0 when unknown.
	Line int
	// ContextID is the execution context it came from; 0 when unknown.
	ContextID int64
}

// DecodeConsole decodes a socket's event when it is a console message
// (Runtime.consoleAPICalled), an uncaught exception
// (Runtime.exceptionThrown) or a log entry (Log.entryAdded); ok is false
// for any other event and for one that does not decode.
func DecodeConsole(ev cdp.Event) (Message, bool) {
	switch ev.Method {
	case "Runtime.consoleAPICalled":
		var p struct {
			Type               string         `json:"type"`
			Args               []RemoteObject `json:"args"`
			ExecutionContextID int64          `json:"executionContextId"`
			StackTrace         *struct {
				CallFrames []struct {
					URL        string `json:"url"`
					LineNumber int    `json:"lineNumber"`
				} `json:"callFrames"`
			} `json:"stackTrace"`
		}
		if json.Unmarshal(ev.Params, &p) != nil {
			return Message{}, false
		}
		m := Message{Type: p.Type, Text: ConsoleText(p.Args), Source: "console", ContextID: p.ExecutionContextID}
		if p.StackTrace != nil && len(p.StackTrace.CallFrames) > 0 {
			m.URL, m.Line = p.StackTrace.CallFrames[0].URL, p.StackTrace.CallFrames[0].LineNumber+1
		}
		return m, true
	case "Runtime.exceptionThrown":
		var p struct {
			ExceptionDetails struct {
				Text               string        `json:"text"`
				URL                string        `json:"url"`
				LineNumber         int           `json:"lineNumber"`
				ExecutionContextID int64         `json:"executionContextId"`
				Exception          *RemoteObject `json:"exception"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(ev.Params, &p) != nil {
			return Message{}, false
		}
		d := p.ExceptionDetails
		m := Message{Type: "exception", Text: d.Text, URL: d.URL, Line: d.LineNumber + 1, Source: "exception", ContextID: d.ExecutionContextID}
		if d.Exception != nil && d.Exception.Description != "" {
			m.Text = d.Exception.Description
		}
		return m, true
	case "Log.entryAdded":
		// Chromium's own messages: failed loads, CSP and mixed-content
		// reports, deprecations, interventions.
		var p struct {
			Entry struct {
				Source     string `json:"source"`
				Level      string `json:"level"`
				Text       string `json:"text"`
				URL        string `json:"url"`
				LineNumber *int   `json:"lineNumber"`
			} `json:"entry"`
		}
		if json.Unmarshal(ev.Params, &p) != nil {
			return Message{}, false
		}
		typ := p.Entry.Level // verbose, info, warning, error
		if typ == "verbose" {
			typ = "debug"
		}
		m := Message{Type: typ, Text: p.Entry.Text, URL: p.Entry.URL, Source: p.Entry.Source}
		if p.Entry.LineNumber != nil {
			m.Line = *p.Entry.LineNumber + 1
		}
		return m, true
	}
	return Message{}, false
}

// LogSwitch turns on Chromium's own log entries (Log.entryAdded) once per
// socket. It is safe for concurrent use and forgets sockets whose
// connection ended.
type LogSwitch struct {
	mu sync.Mutex
	on map[*cdp.Conn]bool
}

// NewLogSwitch returns an empty LogSwitch.
func NewLogSwitch() *LogSwitch { return &LogSwitch{on: map[*cdp.Conn]bool{}} }

// Enable turns the log on for conn unless it is on already. A failure
// leaves it off, to be tried again.
func (l *LogSwitch) Enable(ctx context.Context, conn *cdp.Conn) error {
	l.mu.Lock()
	for k := range l.on {
		select {
		case <-k.Done():
			delete(l.on, k)
		default:
		}
	}
	already := l.on[conn]
	l.on[conn] = true
	l.mu.Unlock()
	if already {
		return nil
	}
	if err := conn.Call(ctx, "Log.enable", nil, nil); err != nil {
		l.mu.Lock()
		delete(l.on, conn)
		l.mu.Unlock()
		return err
	}
	return nil
}

// RemoteObject is the part of Runtime.RemoteObject a message's text needs.
type RemoteObject struct {
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype"`
	Value               json.RawMessage `json:"value"`
	UnserializableValue string          `json:"unserializableValue"`
	Description         string          `json:"description"`
}

// text is how the console shows one argument.
func (o RemoteObject) text() string {
	switch {
	case o.Type == "string":
		var s string
		_ = json.Unmarshal(o.Value, &s)
		return s
	case o.Type == "undefined":
		return "undefined"
	case o.UnserializableValue != "":
		return o.UnserializableValue
	case o.Subtype == "null":
		return "null"
	case len(o.Value) > 0 && o.Type != "object" && o.Type != "function":
		return string(o.Value)
	case o.Description != "":
		return o.Description
	}
	return o.Type
}

// ConsoleText joins a call's arguments as the console shows them, with the
// format directives of a leading string (%s %d %i %f %o %O %c) applied.
func ConsoleText(args []RemoteObject) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, 0, len(args))
	rest := args
	if args[0].Type == "string" && strings.Contains(args[0].text(), "%") {
		format := args[0].text()
		rest = args[1:]
		var b strings.Builder
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 == len(format) {
				b.WriteByte(c)
				continue
			}
			switch d := format[i+1]; d {
			case '%':
				b.WriteByte('%')
				i++
			case 's', 'd', 'i', 'f', 'o', 'O', 'c':
				i++
				if len(rest) == 0 {
					b.WriteByte('%')
					b.WriteByte(d)
					continue
				}
				arg := rest[0]
				rest = rest[1:]
				switch d {
				case 'c': // CSS: not text
				case 'd', 'i':
					if f, err := strconv.ParseFloat(arg.text(), 64); err == nil {
						b.WriteString(strconv.FormatInt(int64(f), 10))
					} else {
						b.WriteString("NaN")
					}
				default:
					b.WriteString(arg.text())
				}
			default:
				b.WriteByte(c)
			}
		}
		parts = append(parts, b.String())
	}
	for _, a := range rest {
		parts = append(parts, a.text())
	}
	return strings.Join(parts, " ")
}
