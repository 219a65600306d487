package tool

import (
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/secret"
	"github.com/understudy-dev/understudy/internal/storage"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Every tool's handler returns a result type: a struct whose JSON fields
// are the tool's result fields (add derives the tool's outputSchema from
// it). The pieces several results share are here; each tool's own result
// type sits beside its handler.

// resultTypeSchemas describes the result types whose JSON is not what
// their Go kind says: a page.Tri is true, false or "mixed"; a
// json.RawMessage carries a value the page or the app chose (an eval's
// result, an event's detail), any JSON.
func resultTypeSchemas() map[reflect.Type]*jsonschema.Schema {
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[page.Tri]():          {Types: []string{"boolean", "string"}, Description: `true, false or "mixed"`},
		reflect.TypeFor[json.RawMessage]():   {Description: "any JSON value"},
		reflect.TypeFor[storage.JSONValue](): {Description: "any JSON value"},
		reflect.TypeFor[secret.String]():     {Type: "string"},
	}
}

// onSurface starts the result of a tool that acts on the active surface:
// the surface it acted on, and the automatic fallback when the surface
// it had selected was gone.
type onSurface = page.OnSurface

// surfaceOf is the onSurface part of a result acting on res.
func surfaceOf(res *surface.Resolution) onSurface { return res.On() }
