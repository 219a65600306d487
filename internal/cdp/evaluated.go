package cdp

import "encoding/json"

// Evaluated is the reply of Runtime.evaluate or Runtime.callFunctionOn
// called with returnByValue: the value the script returned, or what it
// threw.
type Evaluated struct {
	Result struct {
		Value json.RawMessage `json:"value"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text string `json:"text"`
	} `json:"exceptionDetails"`
}

// Threw returns the text of what the script threw, and whether it threw.
func (e *Evaluated) Threw() (string, bool) {
	if e.ExceptionDetails == nil {
		return "", false
	}
	return e.ExceptionDetails.Text, true
}
