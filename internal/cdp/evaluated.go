package cdp

import "encoding/json"

// Evaluated is the reply of Runtime.evaluate or Runtime.callFunctionOn
// called with returnByValue: the value the script returned, or what it
// threw.
type Evaluated struct {
	Result struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text      string `json:"text"`
		Exception struct {
			Description string `json:"description"`
		} `json:"exception"`
	} `json:"exceptionDetails"`
}

// Threw returns the text of what the script threw, and whether it threw.
func (e *Evaluated) Threw() (string, bool) {
	if e.ExceptionDetails == nil {
		return "", false
	}
	return e.ExceptionDetails.Text, true
}

// Thrown returns what the script threw as the page describes it (the
// exception's description, with its stack), else the text, and whether
// it threw.
func (e *Evaluated) Thrown() (string, bool) {
	if e.ExceptionDetails == nil {
		return "", false
	}
	if d := e.ExceptionDetails.Exception.Description; d != "" {
		return d, true
	}
	return e.ExceptionDetails.Text, true
}
