package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
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
		schema, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: inputTypeSchemas()})
		if err != nil {
			panic(fmt.Sprintf("tool %s: schema: %v", name, err))
		}
		return schema
	})
	var result func() *jsonschema.Schema
	if reflect.TypeFor[Out]().Kind() != reflect.Interface {
		result = sync.OnceValue(func() *jsonschema.Schema {
			schema, err := jsonschema.For[Out](&jsonschema.ForOptions{TypeSchemas: resultTypeSchemas()})
			if err != nil {
				panic(fmt.Sprintf("tool %s: result schema: %v", name, err))
			}
			// An action that takes "then" answers with it too (then.go).
			if _, ok := any(new(In)).(thener); ok {
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
	d := &def{
		Def: t, schema: schema, result: result, in: reflect.TypeFor[In](), out: reflect.TypeFor[Out](),
		decode: func(raw json.RawMessage) (any, error) {
			in := new(In)
			if err := toolargs.Decode(raw, in); err != nil {
				return nil, err
			}
			if err := check(in); err != nil {
				return nil, err
			}
			return in, nil
		},
		run: func(ctx context.Context, c *Call, args any) (any, error) { return run(ctx, c, args.(*In)) },
	}
	if _, dup := s.reg.defs[name]; dup {
		panic("tool registered twice: " + name)
	}
	s.reg.defs[name] = d
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
