package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/understudy-dev/understudy/internal/a11y"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/toolargs"
)

// gateFlags refuses a call whose effects need a flag the operator did not
// give: code in the main process without --allow-eval=main.
func (s *Server) gateFlags(d Def) error {
	if d.Effects.Eval == gateMainCode && !s.cfg.AllowEvalMain {
		return errs.New(errs.EvalRequired, "%s runs code in the app's main process (it wraps the app's IPC handlers): the server was not started with --allow-eval=main", d.Name)
	}
	return nil
}

// gateArgs refuses what a call asks for that the operator did not allow:
// secret values (reveal:true) without --allow-secrets.
func (s *Server) gateArgs(d Def, args any) error {
	if r, ok := args.(revealer); ok && d.Effects.Secrets && r.reveals() && !s.cfg.AllowSecrets {
		return errs.New(errs.SecretsNotAllowed, "reveal:true shows secret values and needs the server's --allow-secrets").With("field", "reveal")
	}
	return nil
}

// revealer is the arguments of a tool declaring Effects.Secrets: it says
// whether the call asks to see secret values.
type revealer interface{ reveals() bool }

// opensSession says the registered tool named opens the session it runs in.
func (s *Server) opensSession(name string) bool {
	d, ok := s.tools().defs[name]
	return ok && d.Effects.OpensSession
}

// define registers a tool whose arguments decode into In and whose result
// is Out: a struct (or a pointer to one) whose JSON fields are the tool's
// result fields. The envelope ({ok, …fields, _meta}) and the tool's MCP
// outputSchema are derived from Out (see outputSchema). A tool whose Out is
// an interface publishes no outputSchema; untypedResults lists them. A tool
// whose eval gate the operator left closed is not registered at all.
func define[In, Out any](s *Server, t Def, run func(ctx context.Context, c *Call, in *In) (Out, error)) {
	_, thens := any(new(In)).(thener)
	s.register(t, reflect.TypeFor[In](), reflect.TypeFor[Out](), thens, false,
		func(raw json.RawMessage) (any, error) {
			in := new(In)
			if err := toolargs.Decode(raw, in); err != nil {
				return nil, err
			}
			return in, check(in)
		},
		func(ctx context.Context, c *Call, args any) (any, error) { return run(ctx, c, args.(*In)) })
}

// defineOpt registers a tool whose input is one domain option, T, beside
// sessionId: its input type (withSession) is made here once for every
// such tool (ADR-046), and the handler gets the option. T checks itself
// when it has Check (ADR-045).
func defineOpt[T, Out any](s *Server, t Def, run func(ctx context.Context, c *Call, in *T) (Out, error)) {
	in := withSession(reflect.TypeFor[T]())
	s.register(t, in, reflect.TypeFor[Out](), false, true,
		func(raw json.RawMessage) (any, error) {
			v := reflect.New(in)
			if err := toolargs.Decode(raw, v.Interface()); err != nil {
				return nil, err
			}
			opt := v.Elem().Field(0).Addr().Interface().(*T)
			return optIn[T]{Common: Common{SessionID: v.Elem().Field(1).String()}, opt: opt}, check(opt)
		},
		func(ctx context.Context, c *Call, args any) (any, error) { return run(ctx, c, args.(optIn[T]).opt) })
}

// withSession is the input type of a defineOpt tool: T with sessionId
// (Common's field, tag and all) after it. reflect.StructOf takes an
// embedded type with methods only as the first field, so sessionId
// comes second here and first in the schema (sessionFirst), where
// Common puts it in every other tool.
func withSession(t reflect.Type) reflect.Type {
	if t.Kind() != reflect.Struct || t.Name() == "" {
		panic("defineOpt: the option must be a named struct type, not " + t.String())
	}
	sid := reflect.TypeFor[Common]().Field(0)
	defer func() {
		if r := recover(); r != nil { // reflect cannot embed every type (Go issue 15924)
			panic(fmt.Sprintf("defineOpt: %v for %s: declare this tool's input type by hand (struct{Common; %s}) and use define", r, t, t))
		}
	}()
	return reflect.StructOf([]reflect.StructField{
		{Name: t.Name(), Type: t, Anonymous: true},
		{Name: sid.Name, Type: sid.Type, Tag: sid.Tag},
	})
}

// sessionFirst moves sessionId to the front of a schema's properties.
func sessionFirst(schema *jsonschema.Schema) {
	if i := slices.Index(schema.PropertyOrder, "sessionId"); i > 0 {
		schema.PropertyOrder = slices.Insert(slices.Delete(schema.PropertyOrder, i, i+1), 0, "sessionId")
	}
}

// optIn is a decoded defineOpt input: the session it names and the option.
type optIn[T any] struct {
	Common
	opt *T
}

// register adds a tool to the registry: its Def, its input and result
// types (their schemas are inferred on first use), whether it answers
// "then", whether its input is withSession's (opt), how its arguments
// decode and how it runs.
func (s *Server) register(t Def, in, out reflect.Type, thens, opt bool, decode func(json.RawMessage) (any, error), run func(context.Context, *Call, any) (any, error)) {
	switch t.Effects.Eval {
	case gateEvalRenderer:
		if !s.cfg.AllowEvalRenderer {
			return
		}
	case gateEvalMain:
		if !s.cfg.AllowEvalMain {
			return
		}
	}
	if t.Group == "" {
		t.Group = groupByPrefix(t.Name)
	}
	name := t.Name
	// Inferring the schema walks In by reflection; startup needs only its
	// JSON, which schemas.json holds (see inputSchema), so the inference
	// runs when a test or a tool missing from schemas.json asks for it.
	schema := sync.OnceValue(func() *jsonschema.Schema {
		schema, err := jsonschema.ForType(in, &jsonschema.ForOptions{TypeSchemas: inputTypeSchemas()})
		if err != nil {
			panic(fmt.Sprintf("tool %s: schema: %v", name, err))
		}
		if opt {
			sessionFirst(schema)
		}
		return schema
	})
	var result func() *jsonschema.Schema
	if out.Kind() != reflect.Interface {
		result = sync.OnceValue(func() *jsonschema.Schema {
			schema, err := jsonschema.ForType(out, &jsonschema.ForOptions{TypeSchemas: resultTypeSchemas()})
			if err != nil {
				panic(fmt.Sprintf("tool %s: result schema: %v", name, err))
			}
			// An action that takes "then" answers with it too (then.go).
			if thens {
				then, err := jsonschema.For[thenResult](&jsonschema.ForOptions{TypeSchemas: resultTypeSchemas()})
				if err != nil {
					panic(fmt.Sprintf("tool %s: then schema: %v", name, err))
				}
				if schema.Properties == nil {
					schema.Properties = map[string]*jsonschema.Schema{}
				}
				schema.Properties["then"] = then
			}
			return schema
		})
	}
	if _, dup := s.reg.defs[name]; dup {
		panic("tool registered twice: " + name)
	}
	s.reg.defs[name] = &def{Def: t, schema: schema, result: result, in: in, out: out, opt: opt, decode: decode, run: run}
	s.reg.order = append(s.reg.order, name)
}

// groupOf is the capability group of the registered tool named ("" for a
// core tool or a name no tool has).
func (s *Server) groupOf(name string) string {
	if d, ok := s.tools().defs[name]; ok {
		return d.Group
	}
	return ""
}

// groupByPrefix is the capability group whose prefix a tool's name has
// ("" for none).
func groupByPrefix(name string) string {
	for _, g := range groups {
		if strings.HasPrefix(name, g.prefix) {
			return g.name
		}
	}
	return ""
}

// inputTypeSchemas are the schemas of argument types that decode
// themselves (jsonschema cannot infer them).
func inputTypeSchemas() map[reflect.Type]*jsonschema.Schema {
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[a11y.Rules](): {AnyOf: []*jsonschema.Schema{
			{Type: "array", Items: &jsonschema.Schema{Type: "string"}},
			{Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "object",
				Properties: map[string]*jsonschema.Schema{"enabled": {Type: "boolean"}}, Required: []string{"enabled"}}},
		}},
	}
}

// check judges a decoded input: its validate when it has one (which calls
// the Check of every option it embeds), else the one Check an embedded
// domain option promotes (ADR-045's options check themselves). Two
// embedded options with Check promote none, so such an input needs a
// validate; TestEveryOptionChecked fails on one that has none.
func check(in any) error {
	switch v := in.(type) {
	case validator:
		return v.validate()
	case checker:
		return v.Check()
	}
	return nil
}
