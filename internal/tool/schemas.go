package tool

import (
	"embed"
	"encoding/json"
	"fmt"

	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// schemaFiles holds every tool's input schema as the JSON that
// jsonschema.For infers from its arguments type, one file per tool
// (schemas/<tool>.json). Inferring and marshalling ~60 schemas at startup
// was most of the server's cold start; TestToolsDocSchemas fails when a file
// and the inferred schema disagree, and rewrites them with -update-docs.
//
//go:embed schemas
var schemaFiles embed.FS

// inputSchema is d's input schema as JSON: the embedded file, or the
// inferred schema when the file is missing (a tool added since the files
// were written; the test above says so).
func (d *def) inputSchema() json.RawMessage {
	if b, err := schemaFiles.ReadFile("schemas/" + d.Name + ".json"); err == nil {
		return b
	}
	b, err := json.Marshal(d.schema())
	if err != nil {
		panic(fmt.Sprintf("tool %s: schema: %v", d.Name, err))
	}
	return b
}

// outputSchema is d's MCP outputSchema: the success envelope {ok, the
// result's fields, _meta} described from the tool's result type, from the
// embedded schemas/out/<tool>.json when it is there. It is nil for a tool
// whose result is untyped. A failure's structured content (isError true)
// is the failure envelope instead, which clients do not validate.
func (d *def) outputSchema() json.RawMessage {
	if d.result == nil {
		return nil
	}
	if b, err := schemaFiles.ReadFile("schemas/out/" + d.Name + ".json"); err == nil {
		return b
	}
	b, err := json.Marshal(mcpwire.EnvelopeSchema(d.result()))
	if err != nil {
		panic(fmt.Sprintf("tool %s: result schema: %v", d.Name, err))
	}
	return b
}
