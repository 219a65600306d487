package mcpwire

import "encoding/json"

// HostSchemaOptions say what [HostSchema] leaves out of an input schema
// and which words it shortens.
type HostSchemaOptions struct {
	// Drop names top-level parameters to leave out.
	Drop []string
	// DropDescribed leaves out a top-level parameter (the key) when its
	// description is exactly the value: a parameter the server's
	// instructions describe once for every tool.
	DropDescribed map[string]string
	// Short maps a description, anywhere in the schema, to the one the
	// host sees; an empty one drops the description.
	Short map[string]string
}

// HostSchema is an input schema as tools/list carries it: without the
// parameters o leaves out, with o's shorter descriptions, and without
// additionalProperties:false and "null" in a type list (the server still
// refuses an unknown parameter and still accepts null where the Go type
// does). raw comes back unchanged when it is not a JSON object. The
// result's keys are sorted, as encoding/json writes a map.
func HostSchema(raw json.RawMessage, o HostSchemaOptions) json.RawMessage {
	var schema map[string]any
	if json.Unmarshal(raw, &schema) != nil {
		return raw
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		for _, p := range o.Drop {
			delete(props, p)
		}
		for name, desc := range o.DropDescribed {
			if t, ok := props[name].(map[string]any); ok && t["description"] == desc {
				delete(props, name)
			}
		}
	}
	hostSchemaNode(schema, o.Short)
	out, err := json.Marshal(schema)
	if err != nil {
		return raw
	}
	return out
}

// hostSchemaNode trims one schema node and those under it.
func hostSchemaNode(n map[string]any, shorter map[string]string) {
	if ap, ok := n["additionalProperties"].(bool); ok && !ap {
		delete(n, "additionalProperties")
	}
	if types, ok := n["type"].([]any); ok {
		var kept []any
		for _, t := range types {
			if t != "null" {
				kept = append(kept, t)
			}
		}
		if len(kept) == 1 {
			n["type"] = kept[0]
		}
	}
	if d, ok := n["description"].(string); ok {
		if short, known := shorter[d]; known {
			if short == "" {
				delete(n, "description")
			} else {
				n["description"] = short
			}
		}
	}
	if props, ok := n["properties"].(map[string]any); ok {
		for _, p := range props {
			if p, ok := p.(map[string]any); ok {
				hostSchemaNode(p, shorter)
			}
		}
	}
	if items, ok := n["items"].(map[string]any); ok {
		hostSchemaNode(items, shorter)
	}
}
