package tool

import (
	"embed"
	"encoding/json"
	"fmt"
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
	if b, err := schemaFiles.ReadFile("schemas/" + d.name + ".json"); err == nil {
		return b
	}
	b, err := json.Marshal(d.schema())
	if err != nil {
		panic(fmt.Sprintf("tool %s: schema: %v", d.name, err))
	}
	return b
}
