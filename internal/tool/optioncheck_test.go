package tool

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestEveryOptionChecked: the dispatcher runs an input's validate, else
// the Check its one embedded domain option promotes (define.go's check).
// Two embedded options with Check promote none, silently; so an input
// that embeds any option with Check must either have a validate or
// promote exactly one Check. Each option's own checks have table tests in
// its package.
func TestEveryOptionChecked(t *testing.T) {
	s := allTools(t)
	validatorT := reflect.TypeFor[validator]()
	checkerT := reflect.TypeFor[checker]()
	promoted := 0
	for _, name := range s.Names() {
		d := s.tools().defs[name]
		in := reflect.PointerTo(d.in)
		checks := embeddedChecks(d.in)
		if d.opt {
			// defineOpt: the dispatcher checks the option itself.
			in, checks = reflect.PointerTo(d.in.Field(0).Type), embeddedChecks(d.in.Field(0).Type)
		}
		if in.Implements(validatorT) {
			continue
		}
		switch {
		case len(checks) == 0:
		case in.Implements(checkerT):
			promoted++
		default:
			t.Errorf("%s: its input embeds %s, each with Check, and none is promoted: write a validate that calls each", name, strings.Join(checks, " and "))
		}
	}
	if promoted == 0 {
		t.Error("no tool's input runs a promoted Check: the test looks at the wrong thing")
	}
}

// embeddedChecks names the embedded fields of t whose type (or a pointer
// to it) has Check() error; it looks inside an embedded struct that has
// none (two Checks inside it cancel out).
func embeddedChecks(t reflect.Type) []string {
	var out []string
	checkerT := reflect.TypeFor[checker]()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.Anonymous {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if reflect.PointerTo(ft).Implements(checkerT) {
			out = append(out, ft.String())
			continue
		}
		if ft.Kind() == reflect.Struct {
			out = append(out, embeddedChecks(ft)...)
		}
	}
	return out
}

// TestDefineOptInputs: a defineOpt tool's input is its option beside
// sessionId, decoded strictly as every input is: the session named comes
// to the dispatcher, an unknown field is refused naming sessionId when it
// is the closest, and a sessionId that is not a string names the field.
func TestDefineOptInputs(t *testing.T) {
	s := allTools(t)
	decoded := 0
	for _, name := range s.Names() {
		d := s.tools().defs[name]
		if !d.opt {
			continue
		}
		if props := d.schema().PropertyOrder; len(props) == 0 || props[0] != "sessionId" {
			t.Errorf("%s: sessionId is not the first parameter: %v", name, props)
		}
		if args, err := d.decode(json.RawMessage(`{"sessionId":"s-7"}`)); err == nil {
			decoded++
			if hs, ok := args.(hasSession); !ok || hs.sessionID() != "s-7" {
				t.Errorf("%s: the session named did not reach the dispatcher: %#v", name, args)
			}
		}
		_, err := d.decode(json.RawMessage(`{"sesionId":"s-7"}`))
		if e := errs.As(err); e == nil || e.Details["did_you_mean"] != "sessionId" {
			t.Errorf("%s: a misspelt sessionId: %v, want BAD_ARGUMENT with did_you_mean sessionId", name, err)
		}
		_, err = d.decode(json.RawMessage(`{"sessionId":7}`))
		if e := errs.As(err); e == nil || e.Details["field"] != "sessionId" {
			t.Errorf("%s: a numeric sessionId: %v, want BAD_ARGUMENT naming sessionId", name, err)
		}
	}
	if decoded == 0 {
		t.Error("no defineOpt tool decoded {sessionId} alone: the test checks nothing")
	}
}

// TestDefineOptNamesNoGate: the dispatcher's gates read the tool-side
// pieces of an input (reveal and the secrets gate, then, a routed ref),
// which a defineOpt input, a domain option, cannot carry; so no defineOpt
// tool may take such a parameter or declare secrets (define refuses it).
func TestDefineOptNamesNoGate(t *testing.T) {
	s := allTools(t)
	for _, name := range s.Names() {
		d := s.tools().defs[name]
		if !d.opt {
			continue
		}
		for _, p := range []string{"reveal", "then", "ref"} {
			if _, ok := d.schema().Properties[p]; ok {
				t.Errorf("%s takes %s through defineOpt, where no gate reads it", name, p)
			}
		}
		if d.Effects.Secrets {
			t.Errorf("%s declares secrets through defineOpt, where reveal cannot be gated", name)
		}
	}
}
