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
// (id > 0) nor an event (method set).
func DecodeFrame(b []byte) (Frame, error) {
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		return Frame{}, fmt.Errorf("cdp: bad frame: %w", err)
	}
	if f.ID <= 0 && f.Method == "" {
		return Frame{}, errBadFrame
	}
	return f, nil
}
