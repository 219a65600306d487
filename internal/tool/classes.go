package tool

import "github.com/understudy-dev/understudy/internal/session"

// toolClass says what a tool does to its session, and so how its calls
// share the session with the calls in flight beside them (docs/adr/018):
//
//   - classRead reads the page or the session and changes nothing;
//   - classWait watches the page until a condition holds or time runs out;
//   - classAction changes the page (input, navigation, evaluation, dialog
//     answers);
//   - classLifecycle changes the session itself (which surface or window
//     is selected, the relay, detach and stop) or needs no session at all.
//
// Reads and waits share a session with each other and with one action;
// actions run one at a time, in the order they arrived; lifecycle calls run
// alone. Every registered tool has its class in its Def (def.go;
// TestEveryToolClassified).
type toolClass int

const (
	classRead toolClass = iota + 1
	classWait
	classAction
	classLifecycle
)

func (c toolClass) String() string {
	switch c {
	case classRead:
		return "read"
	case classWait:
		return "wait"
	case classAction:
		return "action"
	case classLifecycle:
		return "lifecycle"
	}
	return "unclassified"
}

// admission is how a call of the class enters its session's gate.
func (c toolClass) admission() session.Class {
	switch c {
	case classRead, classWait:
		return session.Shared
	case classAction:
		return session.Ordered
	}
	return session.Exclusive // lifecycle, and anything unclassified
}
