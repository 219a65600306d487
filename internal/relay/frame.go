package relay

import (
	"encoding/json"
	"strconv"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// withoutSession returns the message with its sessionId member removed, for
// a socket where the session is the socket itself. b is not modified.
func withoutSession(b []byte, env *cdp.Envelope) []byte {
	if !env.HasSessionID {
		return b
	}
	out := make([]byte, 0, len(b)-(env.SessionIDEnd-env.SessionIDStart))
	out = append(out, b[:env.SessionIDStart]...)
	return append(out, b[env.SessionIDEnd:]...)
}

// withSession returns the message (a JSON object without a sessionId) with
// "sessionId":sid added as its last member, where Chromium puts it.
func withSession(b []byte, sid string) []byte {
	end := len(b) - 1
	for end >= 0 && b[end] != '}' {
		end--
	}
	if end < 0 {
		return b
	}
	inner := skipSpaceBack(b, end-1)
	empty := inner >= 0 && b[inner] == '{'
	out := make([]byte, 0, len(b)+len(sid)+16)
	out = append(out, b[:end]...)
	if !empty {
		out = append(out, ',')
	}
	out = append(out, `"sessionId":`...)
	out = strconv.AppendQuote(out, sid)
	return append(out, '}')
}

func skipSpaceBack(b []byte, i int) int {
	for i >= 0 {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i--
		default:
			return i
		}
	}
	return i
}

// droppable reports whether an event may be dropped for a client that falls
// behind: the high-volume network, log and console events. Replies, Target.*,
// Runtime.executionContext*, Page.*, Fetch.* and every other event are never
// dropped.
func droppable(method string) bool {
	switch {
	case len(method) > 8 && method[:8] == "Network.":
		return true
	case len(method) > 4 && method[:4] == "Log.":
		return true
	case method == "Runtime.consoleAPICalled":
		return true
	}
	return false
}

// message builders. Replies and events the relay writes itself are built
// with encoding/json; they are rare (target bookkeeping), never per frame.

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// CDP error codes, as Chromium sends them.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeServerError    = -32000
	codeNoSession      = -32001
)

func replyResult(id int64, sid string, result any) []byte {
	type msg struct {
		ID        int64  `json:"id"`
		Result    any    `json:"result"`
		SessionID string `json:"sessionId,omitempty"`
	}
	if result == nil {
		result = struct{}{}
	}
	b, _ := json.Marshal(msg{ID: id, Result: result, SessionID: sid})
	return b
}

func replyError(id int64, sid string, code int, message string) []byte {
	type msg struct {
		ID        int64    `json:"id"`
		Error     rpcError `json:"error"`
		SessionID string   `json:"sessionId,omitempty"`
	}
	b, _ := json.Marshal(msg{ID: id, Error: rpcError{code, message}, SessionID: sid})
	return b
}

func eventMessage(method string, params any, sid string) []byte {
	type msg struct {
		Method    string `json:"method"`
		Params    any    `json:"params"`
		SessionID string `json:"sessionId,omitempty"`
	}
	b, _ := json.Marshal(msg{Method: method, Params: params, SessionID: sid})
	return b
}
