package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/errs"
)

// A tool is one Def, written beside its handler (docs/adr/037). Everything
// the server says about the tool (tools/list, docs/tools.md, the MCP
// annotations, profiles and groups) and everything it enforces around a
// call (the eval gate, the secrets gate, the client's roots, how the call
// meets an open dialog, a hung page or a crashed app, its admission to the
// session, whether a replay needs confirm) is derived from it by the
// dispatcher, in one place. No other table is keyed by a tool's name:
// TestToolNameInOneFile fails when a name is written in a second Go file.
type Def struct {
	// Name is the tool's name in tools/list; written only here.
	Name string
	// Title is the MCP annotation title: a few words.
	Title string
	// Short is what tools/list carries (docs/adr/030): one line saying what
	// the tool is for and, when another tool is easily confused with it,
	// which one is for that. Empty: Desc, which must then be short.
	Short string
	// Desc is the full description docs/tools.md prints.
	Desc string
	// Profiles holds the letters of the core profiles the tool is in
	// (E essential, T testing, D debug; full has every core tool). A
	// group's tool (Group set) needs none.
	Profiles string
	// Group is the capability group (--with) the tool belongs to; "" for a
	// core tool.
	Group string
	// Class is how its calls share the session (classes.go, docs/adr/018).
	Class toolClass
	// Session says the call resolves a session and takes its admission.
	Session bool
	// Effects is what a call does; a Def without them fails TestEffects.
	Effects Effects
	// TextBody names the result's field that is text for the agent to read
	// (a text snapshot): MCP carries it as a plain text block, not a string
	// escaped inside the JSON (mcp.go).
	TextBody string
	// Image says the result's path is an image the MCP answer also carries
	// inline (inline.go).
	Image bool
	// VerifiedOn, for a tool whose behaviour rests on Electron, says what
	// proves it here (electron_info's electron_verified_on).
	VerifiedOn string
}

// Effects is what a call of a tool does, declared once. Does decides the
// MCP annotations; the other fields decide what the dispatcher checks or
// asks for before the handler runs.
type Effects struct {
	// Does is what the call does to the app and the world (catalog.go's
	// kinds): reads, selects, adds, sets, acts, opens or reaches.
	Does kind
	// Eval is the operator flag the tool needs; without it the tool is
	// absent from the server.
	Eval gate
	// Reads and Writes name the parameters that are paths (or file: URLs)
	// the call reads or writes; Artifacts says it writes files no
	// parameter of the call names (into the artifacts folder, or the trace
	// it records). A tool with any of them gets the MCP client's roots
	// before it runs.
	Reads, Writes []string
	Artifacts     bool
	// Secrets says a result or file may carry secret values, shown only for
	// reveal:true on a server started with --allow-secrets; the
	// dispatcher refuses reveal:true without that flag.
	Secrets bool
	// Page is how the call needs the renderer's page: the zero value needs
	// the active window's page, so an open dialog fails it at once
	// (DIALOG_OPEN) and a hung page answers PAGE_UNRESPONSIVE.
	Page pageNeed
	// AfterCrash says the call runs on a session whose app crashed (it
	// cleans up or reads what happened); every other call answers
	// APP_CRASHED.
	AfterCrash bool
	// EndsSession says the call ends the session (stop, detach, kill): it
	// runs on a crashed app's session too, and a replay of it needs
	// confirm:true.
	EndsSession bool
	// OpensSession says the call opens the session it runs in (a launch,
	// an attach): a replay continues on the session it opened.
	OpensSession bool
	// Irreversible says the call ends the app or the session, runs code,
	// hands local files to the page or replaces a baseline: trace_replay
	// runs a trace holding it only with confirm:true.
	Irreversible bool
}

// pageNeed is how a call needs the renderer's page.
type pageNeed int

const (
	// pageActive: the call acts in the active window's page.
	pageActive pageNeed = iota
	// pageEveryWindow: the call acts in the pages of every window.
	pageEveryWindow
	// pageUnsticks: the call navigates, which stops a running script, so
	// it is a way out of a hung page and is not probed; a dialog still
	// blocks it.
	pageUnsticks
	// pageFree: the call reads or changes only understudy's state, the
	// browser's target list or the main process, or answers dialogs: it
	// works while a dialog is open or the page hangs.
	pageFree
)

// usesFiles says the call reads or writes files, and so needs the MCP
// client's roots before it runs.
func (e Effects) usesFiles() bool {
	return len(e.Reads) > 0 || len(e.Writes) > 0 || e.Artifacts
}

// annotations are the MCP annotations the tool's effects imply.
func (d Def) annotations() *mcp.ToolAnnotations {
	f, t := false, true
	a := &mcp.ToolAnnotations{Title: d.Title, OpenWorldHint: &f}
	switch d.Effects.Does {
	case kRead:
		// destructiveHint means nothing beside readOnlyHint (MCP): left out.
		a.ReadOnlyHint, a.IdempotentHint = true, true
	case kSelect:
		a.IdempotentHint, a.DestructiveHint = true, &f
	case kAdd:
		a.DestructiveHint = &f
	case kSet:
		a.IdempotentHint, a.DestructiveHint = true, &t
	case kAct:
		a.DestructiveHint = &t
	case kOpen:
		a.DestructiveHint, a.OpenWorldHint = &t, &t
	case kReach:
		a.DestructiveHint, a.OpenWorldHint = &f, &t
	}
	return a
}

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

// needsConfirm says a replay of the call needs confirm:true.
func (d Def) needsConfirm() bool {
	switch d.Effects.Eval {
	case gateEvalRenderer, gateEvalMain:
		return true // the caller's own code
	case gateNone, gateMainCode:
	}
	return d.Effects.Irreversible || d.Effects.EndsSession
}

// def is a registered tool: its Def and what add derived from its types.
type def struct {
	Def
	schema func() *jsonschema.Schema // inferred from In on first use
	// result is the schema of the tool's result type (Out), inferred on
	// first use; nil while the tool returns an untyped result (see
	// untypedResults).
	result func() *jsonschema.Schema
	// in and out are the argument (In) and result (Out) types.
	in, out reflect.Type
	decode  func(json.RawMessage) (any, error)
	run     func(ctx context.Context, c *Call, args any) (any, error)
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
			if err := decodeArgs(raw, in); err != nil {
				return nil, err
			}
			if v, ok := any(in).(validator); ok {
				if err := v.validate(); err != nil {
					return nil, err
				}
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
