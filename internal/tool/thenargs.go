package tool

import "github.com/understudy-dev/understudy/internal/page"

// thenArg is the "then" parameter of actions.
type thenArg struct {
	Then string `json:"then,omitempty" jsonschema:"after the action, wait until text=T (the page shows T), selector=S (shown), gone=S (hidden or absent) or url=U (the URL contains U) holds, and/or diff (answer with what changed since your last snapshot); ; joins them and timeout=MS bounds the wait (default 5000), e.g. text=Saved;diff"`
}

func (a *thenArg) thenSpec() string { return a.Then }

// thener is the input of a tool that takes "then".
type thener interface{ thenSpec() string }

// thenResult is what "then" adds to an action's answer.
type thenResult = page.ThenResult
