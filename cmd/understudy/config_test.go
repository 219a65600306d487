package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/tool"
)

func noEnv(string) string { return "" }

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "understudy.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConfigPrecedence: the command line wins over the environment, which
// wins over the config file, which wins over the default; settings say
// where each value came from.
func TestConfigPrecedence(t *testing.T) {
	rootA, rootB := t.TempDir(), t.TempDir()
	cfg := writeConfig(t, `{"$schema": "https://example.invalid/s.json", "operation-timeout-ms": 5000, "log-level": "info",
		"allow-eval": "main", "file-root": [`+quote(rootA)+`, `+quote(rootB)+`], "share-sessions": true, "http": "127.0.0.1:0"}`)
	env := envOf(map[string]string{"UNDERSTUDY_CONFIG": cfg, "UNDERSTUDY_LOG_LEVEL": "debug", "UNDERSTUDY_OPERATION_TIMEOUT_MS": "7000"})
	f, code, ok := parseMCPFlags([]string{"--operation-timeout-ms", "9000"}, io.Discard, io.Discard, env)
	if !ok {
		t.Fatalf("refused (exit %d)", code)
	}
	if f.opTimeout != 9000 || f.settings.Source["operation-timeout-ms"] != fromFlag {
		t.Errorf("flag should win: %d from %s", f.opTimeout, f.settings.Source["operation-timeout-ms"])
	}
	if f.logLevel != "debug" || f.settings.Source["log-level"] != fromEnv {
		t.Errorf("env should win over the file: %s from %s", f.logLevel, f.settings.Source["log-level"])
	}
	if !f.eval.main || f.eval.renderer || f.settings.Source["allow-eval"] != fromFile {
		t.Errorf("allow-eval from the file: %+v", f.eval)
	}
	if !slices.Equal(f.files.roots, []string{rootA, rootB}) || !f.share {
		t.Errorf("file values: roots %v share %v", f.files.roots, f.share)
	}
	if f.settings.Source["token"] != fromDefault || f.settings.ConfigFile != cfg || f.settings.Source["config"] != fromEnv {
		t.Errorf("settings %+v", f.settings)
	}
}

// TestConfigRefusesWhatItDoesNotKnow: unknown keys, bad values and bad
// variables are errors that name the key or the variable; nothing is
// accepted silently.
func TestConfigRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"unknown key", []string{"--config", writeConfig(t, `{"app-rot": "/x"}`)}, nil, `unknown key "app-rot"`},
		{"bad value type", []string{"--config", writeConfig(t, `{"operation-timeout-ms": {"a": 1}}`)}, nil, `key "operation-timeout-ms"`},
		{"bad number", []string{"--config", writeConfig(t, `{"operation-timeout-ms": "soon"}`)}, nil, `operation-timeout-ms`},
		{"not an object", []string{"--config", writeConfig(t, `[1,2]`)}, nil, "not a JSON object"},
		{"two values", []string{"--config", writeConfig(t, `{} {}`)}, nil, "more than one JSON value"},
		{"missing file", []string{"--config", "/nonexistent/understudy.json"}, nil, "config file"},
		{"bad env", nil, map[string]string{"UNDERSTUDY_SHARE_SESSIONS": "maybe"}, "$UNDERSTUDY_SHARE_SESSIONS"},
		{"bad eval env", nil, map[string]string{"UNDERSTUDY_ALLOW_EVAL": "everything"}, "$UNDERSTUDY_ALLOW_EVAL"},
		{"bad log level", []string{"--log-level", "verbose"}, nil, `--log-level takes debug, info, warn or error, not "verbose"`},
		{"bad log level env", nil, map[string]string{"UNDERSTUDY_LOG_LEVEL": "loud"}, `$UNDERSTUDY_LOG_LEVEL takes debug, info, warn or error, not "loud"`},
		{"bad log level file", []string{"--config", writeConfig(t, `{"log-level": "loud"}`)}, nil, `key "log-level" takes debug, info, warn or error, not "loud"`},
		{"bad timeout env", nil, map[string]string{"UNDERSTUDY_OPERATION_TIMEOUT_MS": "5"}, "$UNDERSTUDY_OPERATION_TIMEOUT_MS must be between 1000 and 3600000"},
		{"bad eval value", []string{"--allow-eval=xyz"}, nil, `--allow-eval takes no value (main and renderer), main, renderer, true or false, not "xyz"`},
		{"bad switch value", []string{"--share-sessions=maybe"}, nil, `--share-sessions takes no value, true or false, not "maybe"`},
		{"unknown flag", []string{"--no-such-flag"}, nil, "no-such-flag"},
		{"version is not a setting", []string{"--config", writeConfig(t, `{"version": true}`)}, nil, `unknown key "version"`},
		{"stray argument", []string{"extra"}, nil, `unexpected argument "extra"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr bytes.Buffer
			_, code, ok := parseMCPFlags(c.args, io.Discard, &stderr, envOf(c.env))
			if ok || code != 2 {
				t.Fatalf("accepted (ok=%v code=%d)", ok, code)
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Fatalf("stderr %q does not name %q", stderr.String(), c.want)
			}
		})
	}
}

// TestHelpGoesToStdout: every command's --help prints on stdout and exits 0
// with nothing on stderr.
func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"mcp", "--help"}, {"relay", "--help"}, {"demo", "--help"}, {"doctor", "--help"},
		{"replay", "--help"}, {"production", "--help"}, {"production", "-h"}, {"production", "validate", "--help"}, {"production", "validate", "-h"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Errorf("%v: exit %d (stderr %q)", args, code, stderr.String())
		}
		if stdout.Len() < 100 || stderr.Len() != 0 {
			t.Errorf("%v: stdout %d bytes, stderr %q", args, stdout.Len(), stderr.String())
		}
	}
	var stdout bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &stdout, io.Discard); code != 0 || !strings.HasPrefix(stdout.String(), "understudy ") || !strings.Contains(stdout.String(), "go1.") {
		t.Errorf("--version: exit %d, %q", code, stdout.String())
	}
}

// TestDoctorPrintsSettings: doctor --json reports every MCP setting with its
// source, and fails on a bad variable.
func TestDoctorPrintsSettings(t *testing.T) {
	cfg := writeConfig(t, `{"operation-timeout-ms": 4000}`)
	t.Setenv("UNDERSTUDY_LOG_LEVEL", "info")
	t.Setenv("UNDERSTUDY_TOKEN", "s3cret-token")
	t.Setenv("UNDERSTUDY_HTTP", "127.0.0.1:0")
	var stdout bytes.Buffer
	run([]string{"doctor", "--json", "--config", cfg}, strings.NewReader(""), &stdout, io.Discard)
	var rep struct {
		Settings settings `json:"settings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, stdout.String())
	}
	s := rep.Settings
	if s.Value["operation-timeout-ms"] != "4000" || s.Source["operation-timeout-ms"] != fromFile ||
		s.Value["log-level"] != "info" || s.Source["log-level"] != fromEnv || s.Source["app-root"] != fromDefault {
		t.Fatalf("settings %+v", s)
	}
	if strings.Contains(stdout.String(), "s3cret-token") || s.Value["token"] != "[set]" {
		t.Fatalf("doctor printed the token: %s", stdout.String())
	}
	t.Setenv("UNDERSTUDY_LOG_LEVEL", "verbose")
	stdout.Reset()
	if code := run([]string{"doctor"}, strings.NewReader(""), &stdout, io.Discard); code != 1 || !strings.Contains(stdout.String(), "$UNDERSTUDY_LOG_LEVEL takes debug") {
		t.Fatalf("doctor with a bad variable: exit %d\n%s", code, stdout.String())
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

var updateSchema = flag.Bool("update-schema", false, "rewrite docs/config.schema.json")

// TestConfigSchemaMatchesFlags: docs/config.schema.json is the schema of
// the MCP server's flags as they are (go test -run TestConfigSchema
// -update-schema rewrites it), and a config file using every key validates.
func TestConfigSchemaMatchesFlags(t *testing.T) {
	fs, _, _, _ := mcpFlagSet()
	want, err := json.MarshalIndent(configSchema(fs, "understudy configuration file"), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	path := filepath.Join("..", "..", "docs", "config.schema.json")
	if *updateSchema {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("docs/config.schema.json is not the flags' schema; run go test ./cmd/understudy -run TestConfigSchema -update-schema")
	}
	var props struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(got, &props); err != nil {
		t.Fatal(err)
	}
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if _, ok := props.Properties[f.Name]; !ok && !notSettings[f.Name] {
			t.Errorf("flag --%s has no key in the schema", f.Name)
		}
	})
	if n < 10 {
		t.Fatalf("only %d flags", n)
	}
}

// doctorJSON runs understudy doctor --json with args and returns its checks
// by name and its settings.
func doctorJSON(t *testing.T, args ...string) (map[string]tool.Check, settings) {
	t.Helper()
	var stdout bytes.Buffer
	run(append([]string{"doctor", "--json"}, args...), strings.NewReader(""), &stdout, io.Discard)
	var rep struct {
		Checks   []tool.Check `json:"checks"`
		Settings settings     `json:"settings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, stdout.String())
	}
	checks := map[string]tool.Check{}
	for _, c := range rep.Checks {
		checks[c.Name] = c
	}
	return checks, rep.Settings
}

// TestDoctorReadsSettings (issue 29): doctor reports the eval policy, the
// app root and the file roots the server would run with when they come from
// UNDERSTUDY_* variables or the config file, not the defaults; and its
// checks are electron_doctor's from a server with the same settings.
func TestDoctorReadsSettings(t *testing.T) {
	appRoot, fileRoot := t.TempDir(), t.TempDir()
	t.Setenv("UNDERSTUDY_ALLOW_EVAL", "main")
	t.Setenv("UNDERSTUDY_APP_ROOT", appRoot)
	t.Setenv("UNDERSTUDY_FILE_ROOT", fileRoot)
	checks, st := doctorJSON(t)
	if c := checks["eval_policy"]; !strings.Contains(c.Detail, "main=true renderer=false") {
		t.Errorf("eval_policy from $UNDERSTUDY_ALLOW_EVAL: %+v", c)
	}
	if st.Value["allow-eval"] != "main" || st.Source["allow-eval"] != fromEnv {
		t.Errorf("settings: allow-eval %q from %q", st.Value["allow-eval"], st.Source["allow-eval"])
	}
	if c := checks["app_root"]; !c.OK || !strings.Contains(c.Detail, "confined to "+appRoot) {
		t.Errorf("app_root from $UNDERSTUDY_APP_ROOT: %+v", c)
	}
	if c := checks["file_roots"]; !c.OK || !strings.Contains(c.Detail, "file-root "+fileRoot) || !strings.Contains(c.Detail, "app-root "+appRoot) {
		t.Errorf("file_roots: %+v", c)
	}

	// The same from a config file, and a root that is not there fails.
	for _, v := range []string{"UNDERSTUDY_ALLOW_EVAL", "UNDERSTUDY_APP_ROOT", "UNDERSTUDY_FILE_ROOT"} {
		t.Setenv(v, "")
	}
	gone := filepath.Join(t.TempDir(), "gone")
	cfg := writeConfig(t, `{"allow-eval": "renderer", "app-root": `+quote(appRoot)+`, "artifacts-dir": `+quote(gone)+`}`)
	checks, st = doctorJSON(t, "--config", cfg)
	if c := checks["eval_policy"]; !strings.Contains(c.Detail, "main=false renderer=true") {
		t.Errorf("eval_policy from the config file: %+v", c)
	}
	if c := checks["app_root"]; !strings.Contains(c.Detail, "confined to "+appRoot) || st.Source["app-root"] != fromFile {
		t.Errorf("app_root from the config file: %+v (%q)", c, st.Source["app-root"])
	}
	if c := checks["file_roots"]; !c.OK || !strings.Contains(c.Detail, gone+" (created on first use)") {
		t.Errorf("file_roots with a new artifacts folder: %+v", c)
	}
	// One code path: electron_doctor of a server with the config file's
	// settings reports the same checks.
	fs, mf, allowed, blocked := mcpFlagSet()
	pst, err := parseLayered(fs, []string{"--config", cfg}, "UNDERSTUDY_", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	mf.settings = pst
	if err := mf.check(*allowed, *blocked); err != nil {
		t.Fatal(err)
	}
	srv := tool.New(mf.toolConfig(nil))
	defer srv.Close()
	res := srv.Dispatch(context.Background(), "electron_doctor", json.RawMessage(`{}`), nil)
	var mcpRep struct {
		Checks []tool.Check `json:"checks"`
	}
	if err := json.Unmarshal(res.JSON, &mcpRep); err != nil || res.IsError {
		t.Fatalf("electron_doctor: %v %s", err, res.JSON)
	}
	checks, _ = doctorJSON(t, "--config", cfg)
	for _, c := range mcpRep.Checks {
		if c.Name == "browser" || c.Name == "temp_space" {
			continue // measured at the moment
		}
		if got := checks[c.Name]; got != c {
			t.Errorf("%s: understudy doctor %+v, electron_doctor %+v", c.Name, got, c)
		}
	}
}

// TestCommandLineErrors (issue 29): what a command refuses is said on
// stderr in the command line's words (flags, not the tools' fields; no
// "call again"), stdout stays empty, bad input exits with the usage code
// (2; replay's is 64) and a failure to reach an app exits 1.
func TestCommandLineErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	free := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close() // nothing listens there now
	for _, c := range []struct {
		args []string
		exit int
		want []string
	}{
		{[]string{"relay", "--attach", "http://127.0.0.1:" + free}, 1, []string{"nothing answers at http://127.0.0.1:" + free, "--remote-debugging-port=" + free}},
		{[]string{"relay", "--attach", "http://example.com:9222"}, 2, []string{"--attach:", "not a loopback host"}},
		{[]string{"relay", "--attach", "ftp://127.0.0.1:1"}, 2, []string{"--attach:", "scheme"}},
		{[]string{"relay", "--launch", "relative/app"}, 2, []string{"--launch:", "absolute"}},
		{[]string{"relay", "--launch", "/nonexistent/app"}, 2, []string{"--launch:", "does not exist"}},
		{[]string{"relay"}, 2, []string{"exactly one of --attach"}},
		{[]string{"relay", "--attach", "http://127.0.0.1:9222", "--port", "70000"}, 2, []string{"--port"}},
		{[]string{"production"}, 2, []string{"production validate"}},
		{[]string{"production", "check"}, 2, []string{`unknown command "check"`}},
		{[]string{"production", "validate"}, 2, []string{"name the app"}},
		{[]string{"production", "validate", "--nope"}, 2, []string{"-nope"}},
		{[]string{"replay", "/nonexistent/spec.json"}, 2, []string{"TRACE_NOT_FOUND"}},
		{[]string{"replay"}, 64, []string{"name the spec"}},
		{[]string{"frobnicate"}, 2, []string{`unknown command "frobnicate"`}},
		{[]string{"--allow-eval=xyz"}, 2, []string{`--allow-eval takes no value (main and renderer), main, renderer, true or false, not "xyz"`}},
		{[]string{"doctor", "--nope"}, 2, []string{"-nope"}},
		{[]string{"demo", "--nope"}, 2, []string{"-nope"}},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.exit {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.exit, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: stdout %q; diagnostics go to stderr", c.args, stdout.String())
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%v: stderr %q does not say %q", c.args, stderr.String(), w)
			}
		}
		for _, mcpWords := range []string{"cdpUrl", "call again", "Call electron_", "executablePath", "invalid boolean"} {
			if strings.Contains(stderr.String(), mcpWords) {
				t.Errorf("%v: stderr %q speaks MCP (%q)", c.args, stderr.String(), mcpWords)
			}
		}
	}
}
