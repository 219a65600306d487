package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Where a setting came from, in the order that wins: the command line,
// then the environment, then the config file, then the default.
const (
	fromFlag    = "flag"
	fromEnv     = "env"
	fromFile    = "file"
	fromDefault = "default"
)

// settings records, for every flag of a command, where its value came
// from. doctor prints it.
type settings struct {
	prefix     string            // the variables' prefix (UNDERSTUDY_)
	ConfigFile string            `json:"config_file,omitempty"`
	Source     map[string]string `json:"source"` // flag name → fromFlag, fromEnv, fromFile or fromDefault
	Value      map[string]string `json:"value"`  // flag name → its value as text (secrets hidden)
}

// notSettings are flags that ask for an action rather than set something:
// no variable or config key sets them.
var notSettings = map[string]bool{"config": true, "version": true}

// secretFlags are never printed with their value.
var secretFlags = map[string]bool{"token": true, "remote-header": true}

// envName is the variable that sets a flag: UNDERSTUDY_ + the flag's name
// in upper case with - as _ (--app-root → UNDERSTUDY_APP_ROOT). A
// subcommand's flags have its name too (relay --port →
// UNDERSTUDY_RELAY_PORT).
func envName(prefix, flagName string) string {
	return prefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseLayered parses args into fs, then sets every flag the command line
// did not set from its environment variable (envPrefix + NAME) and, failing
// that, from the config file: --config on the command line, else
// envPrefix+CONFIG. Help goes to stdout (the caller prints usage when
// flag.ErrHelp comes back); every other problem is an error that names the
// flag, the variable or the key. fs must define "config". Arguments after
// the flags are left in fs.Args() for the caller to judge.
func parseLayered(fs *flag.FlagSet, args []string, envPrefix string, getenv func(string) string) (*settings, error) {
	fs.SetOutput(io.Discard) // errors are returned, usage is the caller's
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%v (see --help)", plainFlagError(fs, err))
	}
	st := &settings{prefix: envPrefix, Source: map[string]string{}, Value: map[string]string{}}
	fs.Visit(func(f *flag.Flag) { st.Source[f.Name] = fromFlag })

	file := fs.Lookup("config").Value.String()
	if file == "" {
		if v := getenv(envPrefix + "CONFIG"); v != "" {
			file = v
			if err := fs.Set("config", v); err != nil {
				return nil, err
			}
			st.Source["config"] = fromEnv
		}
	}
	var fileValues map[string]json.RawMessage
	if file != "" {
		var err error
		if fileValues, err = readConfigFile(fs, file); err != nil {
			return nil, err
		}
		st.ConfigFile = file
	}
	var problem error
	fs.VisitAll(func(f *flag.Flag) {
		if problem != nil || st.Source[f.Name] == fromFlag || notSettings[f.Name] {
			return
		}
		if v := getenv(envName(envPrefix, f.Name)); v != "" {
			if err := setAll(fs, f.Name, []string{v}); err != nil {
				problem = fmt.Errorf("$%s: %v", envName(envPrefix, f.Name), err)
				return
			}
			st.Source[f.Name] = fromEnv
			return
		}
		if raw, ok := fileValues[f.Name]; ok {
			vals, err := configValues(raw)
			if err == nil {
				err = setAll(fs, f.Name, vals)
			}
			if err != nil {
				problem = fmt.Errorf("config file %s: key %q: %v", file, f.Name, err)
				return
			}
			st.Source[f.Name] = fromFile
			return
		}
		if st.Source[f.Name] == "" {
			st.Source[f.Name] = fromDefault
		}
	})
	if problem != nil {
		return nil, problem
	}
	fs.VisitAll(func(f *flag.Flag) {
		v := f.Value.String()
		if secretFlags[f.Name] && v != "" {
			v = "[set]"
		}
		st.Value[f.Name] = v
	})
	return st, nil
}

// badBool is the flag package's error for a boolean flag given a value it
// refuses: invalid boolean value "V" for -NAME: WHY.
var badBool = regexp.MustCompile(`^invalid boolean value "(.*)" for -([^:]+): (.*)$`)

// plainFlagError says a refused value of a boolean flag in the command
// line's words: a flag with values of its own (--allow-eval) gives its own
// message, which lists what it takes; a plain switch takes true or false.
func plainFlagError(fs *flag.FlagSet, err error) error {
	m := badBool.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	if f := fs.Lookup(m[2]); f != nil {
		if _, plain := f.Value.(flag.Getter); !plain {
			return errors.New(m[3])
		}
	}
	return fmt.Errorf("--%s takes no value, true or false, not %q", m[2], m[1])
}

// blame names, in a refused setting's message, where the value came from
// when that was not the command line: the variable ($UNDERSTUDY_LOG_LEVEL)
// or the config file's key. A message that starts with the flag
// (--log-level ...) has it replaced; any other gets the name in front.
func (st *settings) blame(name string, err error) error {
	if st == nil || err == nil {
		return err
	}
	var where string
	switch st.Source[name] {
	case fromEnv:
		where = "$" + envName(st.prefix, name)
	case fromFile:
		where = fmt.Sprintf("config file %s: key %q", st.ConfigFile, name)
	default:
		return err
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "--"+name); ok {
		return errors.New(where + rest)
	}
	return errors.New(where + ": " + msg)
}

// setAll sets a flag to each value in turn (a repeatable flag takes them
// all; any other flag takes one).
func setAll(fs *flag.FlagSet, name string, vals []string) error {
	for _, v := range vals {
		if err := fs.Set(name, v); err != nil {
			return err
		}
	}
	return nil
}

// readConfigFile reads a JSON object whose keys are flag names. A key that
// names no flag, and a file that is not one JSON object, are errors.
func readConfigFile(fs *flag.FlagSet, path string) (map[string]json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil || m == nil {
		if err == nil {
			err = errors.New("it is null")
		}
		return nil, fmt.Errorf("config file %s: not a JSON object: %v", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("config file %s: more than one JSON value", path)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "$schema" {
			continue
		}
		if notSettings[k] || fs.Lookup(k) == nil {
			return nil, fmt.Errorf("config file %s: unknown key %q (keys are the flags' names without --, see --help)", path, k)
		}
	}
	return m, nil
}

// configValues turns a config file's value into the flag values it stands
// for: a string, a number or a boolean as its text; an array of them for a
// repeatable flag.
func configValues(raw json.RawMessage) ([]string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	one := func(x any) (string, error) {
		switch t := x.(type) {
		case string:
			return t, nil
		case json.Number:
			return t.String(), nil
		case bool:
			return strconv.FormatBool(t), nil
		}
		return "", fmt.Errorf("expected a string, a number or true/false, got %s", jsonType(x))
	}
	if arr, ok := v.([]any); ok {
		out := make([]string, 0, len(arr))
		for _, x := range arr {
			s, err := one(x)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	s, err := one(v)
	if err != nil {
		return nil, err
	}
	return []string{s}, nil
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}

// repeatable is a flag.Value that takes the flag several times.
type repeatable interface{ repeatable() }

func (rootList) repeatable() {}

// configSchema is the JSON schema of a config file for fs's flags
// (docs/config.schema.json is the MCP server's).
func configSchema(fs *flag.FlagSet, title string) map[string]any {
	props := map[string]any{"$schema": map[string]any{"type": "string"}}
	fs.VisitAll(func(f *flag.Flag) {
		if notSettings[f.Name] {
			return
		}
		p := map[string]any{"description": f.Usage}
		switch v := f.Value.(type) {
		case repeatable:
			p["oneOf"] = []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}
		case *evalFlag:
			p["oneOf"] = []any{map[string]any{"type": "boolean"}, map[string]any{"enum": []string{"main", "renderer", "both", "all", "true", "false"}}}
		case interface{ IsBoolFlag() bool }:
			if v.IsBoolFlag() {
				p["type"] = "boolean"
			}
		case flag.Getter:
			switch v.Get().(type) {
			case int, int64, uint, uint64:
				p["type"] = "integer"
			case float64:
				p["type"] = "number"
			default:
				p["type"] = "string"
			}
		}
		if p["type"] == nil && p["oneOf"] == nil {
			p["type"] = "string"
		}
		props[f.Name] = p
	})
	return map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"title":                title,
		"description":          "Keys are the flags' names without --; the command line and UNDERSTUDY_* variables win over the file.",
		"type":                 "object",
		"additionalProperties": false,
		"properties":           props,
	}
}
