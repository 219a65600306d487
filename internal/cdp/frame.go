package cdp

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Frame is the envelope of one CDP message. A reply has ID and Result or
// Error; an event has Method and Params. SessionID is set on frames of a
// flattened child session.
type Frame struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *ProtocolError  `json:"error,omitempty"`
}

// ProtocolError is an error the browser returned for a call.
type ProtocolError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func (e *ProtocolError) Error() string {
	if e.Data != "" {
		return fmt.Sprintf("%s (%d): %s", e.Message, e.Code, e.Data)
	}
	return fmt.Sprintf("%s (%d)", e.Message, e.Code)
}

var errBadFrame = errors.New("cdp: frame is neither a reply nor an event")

// DecodeFrame parses one message. It rejects frames that are neither a reply
// (id > 0) nor an event (method set). The frame's params and result may
// share b's bytes.
//
// The frames Chromium writes are read in one pass (ScanEnvelope): params and
// result stay as the bytes they are, so an event costs one scan on the
// reader. Anything unusual (a name encoding/json would fold onto a field, a
// repeated member, a malformed routing value) is decoded in full instead,
// so a frame encoding/json accepts reads as encoding/json reads it.
func DecodeFrame(b []byte) (Frame, error) {
	if f, ok := frameOf(b); ok {
		return f, nil
	}
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		return Frame{}, fmt.Errorf("cdp: bad frame: %w", err)
	}
	if f.ID <= 0 && f.Method == "" {
		return Frame{}, errBadFrame
	}
	return f, nil
}

// frameOf is the frame ScanEnvelope reads from b, when that is what a full
// decode would give. It does not validate the inside of params and result;
// their consumers decode them.
func frameOf(b []byte) (Frame, bool) {
	e, err := ScanEnvelope(b)
	if err != nil || e.Folded || (e.ID <= 0 && e.Method == "") {
		return Frame{}, false
	}
	f := Frame{ID: e.ID, SessionID: e.SessionID, Method: e.Method, Params: e.Params, Result: e.Result}
	if e.Error != nil && json.Unmarshal(e.Error, &f.Error) != nil {
		return Frame{}, false
	}
	return f, true
}
