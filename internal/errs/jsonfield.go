package errs

import "strings"

// UnknownJSONField reads the field name out of the error that
// encoding/json's Decoder.DisallowUnknownFields produces. encoding/json has
// no typed error for an unknown field (only the text `json: unknown field
// "NAME"`), so this is the one place that reads a decoding error's text;
// the tool dispatcher's TestDecodeArgsNamesUnknownField fails if the text
// changes.
func UnknownJSONField(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	_, rest, ok := strings.Cut(err.Error(), `unknown field "`)
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, `"`)
	return name, ok && name != ""
}
