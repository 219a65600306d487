package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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
	ConfigFile string            `json:"config_file,omitempty"`
	Source     map[string]string `json:"source"` // flag name → fromFlag, fromEnv, fromFile or fromDefault
	Value      map[string]string `json:"value"`  // flag name → its value as text (secrets hidden)
}

// secretFlags are never printed with their value.
var secretFlags = map[string]bool{"token": true}

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
		return nil, fmt.Errorf("%v (see --help)", err)
	}
	st := &settings{Source: map[string]string{}, Value: map[string]string{}}
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
		if problem != nil || st.Source[f.Name] == fromFlag || f.Name == "config" {
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
		if k == "config" || fs.Lookup(k) == nil {
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
