package trace

import (
	"encoding/json"
	"strings"

	"github.com/understudy-dev/understudy/internal/secret"
)

// Redacted replaces a secret value in a recorded step.
const Redacted = secret.Redacted

// secretWords name argument fields whose values are never recorded.
var secretWords = []string{"password", "passwd", "secret", "authorization", "cookie", "apikey", "api_key", "credential", "privatekey", "private_key"}

// IsSecretKey reports whether a field with this name holds a secret: a
// name with a secret word in it, or one ending in "token" (token counts such
// as estimated_tokens or budgetTokens are not secrets).
func IsSecretKey(k string) bool {
	k = strings.ToLower(k)
	if strings.HasSuffix(k, "token") {
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// IsSecretTarget reports whether text typed into this element is a secret
// (a password field, by its accessible name).
func IsSecretTarget(t Target) bool {
	return IsSecretKey(t.Name) || strings.Contains(strings.ToLower(t.Name), "passcode") || strings.EqualFold(t.Name, "pin")
}

// Redact returns raw (a JSON object or array) with the values of secret
// fields, at any depth, replaced by [Redacted], plus the extra top-level
// fields named in also. Input that is not JSON is replaced whole.
func Redact(raw json.RawMessage, also ...string) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		b, _ := json.Marshal(Redacted)
		return b
	}
	if m, ok := v.(map[string]any); ok {
		for _, k := range also {
			if _, ok := m[k]; ok {
				m[k] = Redacted
			}
		}
	}
	v = redactValue(v)
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(Redacted)
	}
	return b
}

func redactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if IsSecretKey(k) {
				x[k] = Redacted
				continue
			}
			// {"name": "Authorization", "value": "..."}: a header or cookie pair.
			if k == "value" {
				if n, ok := x["name"].(string); ok && IsSecretKey(n) {
					x[k] = Redacted
					continue
				}
			}
			x[k] = redactValue(val)
		}
	case []any:
		for i := range x {
			x[i] = redactValue(x[i])
		}
	}
	return v
}
