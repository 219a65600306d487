package toolargs

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Decode decodes raw, a call's arguments, into the struct into points to:
// strictly (an unknown field is refused), after taking the spellings
// agents commonly send (normalize), and turns every failure into a
// BAD_ARGUMENT that names the field.
func Decode(raw json.RawMessage, into any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return errs.BadArg("arguments", "must be a JSON object")
	}
	raw, err := normalize(raw, reflect.TypeOf(into))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err = dec.Decode(into)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := jsonPath(reflect.TypeOf(into), te.Field)
		if field == "" {
			field = "arguments"
		}
		return errs.BadArg(field, "expected %s, got a JSON %s", jsonKind(te.Type), te.Value)
	}
	if name, ok := errs.UnknownJSONField(err); ok {
		// The closest parameter of the tool (didyoumean.go), so the
		// agent's next call is right.
		if guess, ok := Closest(name, Names(reflect.TypeOf(into))); ok {
			return errs.BadArg(name, "is not a parameter of this tool; did you mean %s?", guess).With("did_you_mean", guess)
		}
		return errs.BadArg(name, "is not a parameter of this tool; check the tool's input schema")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errs.BadArg("arguments", "invalid JSON at offset %d: %v", se.Offset, err)
	}
	return errs.BadArg("arguments", "%v", err)
}

// normalize takes what agents commonly send for what a parameter
// means (otherSpellings, numericRefs) before the strict decode, and
// refuses an overlong selector (selector.go) on the same decoding;
// anything else is left for the decoder to judge (and did-you-mean to
// answer). With the strict decode, the arguments are decoded twice, and
// the dispatcher and ref routing read the typed input only.
func normalize(raw json.RawMessage, t reflect.Type) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw, nil
	}
	if len(raw) > MaxSelectorLen {
		if err := checkSelectorLengths(m); err != nil {
			return nil, err
		}
	}
	renamed := otherSpellings(m, t)
	refs := numericRefs(m)
	if !renamed && !refs {
		return raw, nil
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw, nil
	}
	return out, nil
}

// otherSpellings renames an argument spelled as results spell the same
// field (surface_id, window_id, target_id) to the parameter it names
// (surfaceId…): the one parameter whose name is the same case- and
// separator-insensitively, when that parameter is not given too. It says
// whether it renamed any.
func otherSpellings(m map[string]json.RawMessage, t reflect.Type) bool {
	var byKey map[string]string // param key → parameter, built on first need
	changed := false
	for k, v := range m {
		if !strings.ContainsAny(k, "_-") {
			continue
		}
		if byKey == nil {
			byKey = map[string]string{}
			for _, p := range Names(t) {
				if !strings.Contains(p, ".") {
					byKey[key(p)] = p
				}
			}
		}
		p, ok := byKey[key(k)]
		if !ok || p == k {
			continue
		}
		if _, given := m[p]; given {
			continue
		}
		delete(m, k)
		m[p] = v
		changed = true
	}
	return changed
}

// numericRefs turns a ref given as a string of digits ("3", as agents often
// copy it from "[3]" lines) into the number it names, and says whether it
// turned any.
func numericRefs(m map[string]json.RawMessage) bool {
	changed := false
	for _, k := range []string{"ref", "targetRef"} { // the parameters that take a ref
		v, ok := m[k]
		if !ok || len(v) == 0 || v[0] != '"' {
			continue
		}
		var str string
		if json.Unmarshal(v, &str) != nil {
			continue
		}
		str = strings.TrimSpace(str)
		if n, err := strconv.Atoi(str); err == nil && n > 0 && strconv.Itoa(n) == str {
			m[k] = json.RawMessage(str)
			changed = true
		}
	}
	return changed
}

// jsonPath turns the decoder's path of a field (which names embedded Go
// structs: "actArgs.elementArgs.ref") into the parameter's JSON path
// ("ref").
func jsonPath(t reflect.Type, goPath string) string {
	var out []string
	for _, seg := range strings.Split(goPath, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			out = append(out, seg)
			t = nil
			continue
		}
		if f, ok := jsonField(t, seg); ok {
			out = append(out, seg)
			t = f.Type
			continue
		}
		if f, ok := t.FieldByName(seg); ok && f.Anonymous {
			t = f.Type // an embedded struct: no segment of its own
			continue
		}
		out = append(out, seg)
		t = nil
	}
	return strings.Join(out, ".")
}

// jsonField finds the field whose JSON name is name, in t or the structs it
// embeds.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name || (tag == "" && !f.Anonymous && f.Name == name) {
			return f, true
		}
		if f.Anonymous && tag == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if g, ok := jsonField(et, name); ok {
					return g, true
				}
			}
		}
	}
	return reflect.StructField{}, false
}

// jsonKind names a Go type as the JSON it takes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.Kind().String()
}
