package production_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/production"
	"github.com/understudy-dev/understudy/internal/production/oracle"
)

const pkgJSON = `{"name":"demo-app","version":"1.2.3","main":"dist/main.js","devDependencies":{"electron":"^33.0.0"}}`

func safeApp() map[string]any {
	return map[string]any{
		"package.json":          pkgJSON,
		"dist/main.js":          "const w = new BrowserWindow({webPreferences: {preload: p, contextIsolation: true, sandbox: true}})\n",
		"dist/ui/index.html":    "<!doctype html><title>x</title>",
		"native/addon.node":     map[string]any{"random": 3000},
		"assets/big.bin":        map[string]any{"random": 9 << 20},              // three 4 MiB blocks
		"assets/exact.bin":      map[string]any{"repeat": "z", "size": 4 << 20}, // exactly one block: the oracle lists two
		"assets/empty.txt":      "",
		"node_modules/m/a.js":   "module.exports = 1",
		"node_modules/m/p.json": "{}",
	}
}

func checkOf(t *testing.T, r *production.Report, id string) production.Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("report has no %q check: %+v", id, r.Checks)
	return production.Check{}
}

// TestValidateMatchesTheOracle: an app built by @electron/asar and fused by
// @electron/fuses reads back the same file list, header and fuse states,
// and every integrity hash (multi-block, exact-block, empty, unpacked)
// verifies.
func TestValidateMatchesTheOracle(t *testing.T) {
	app, o := oracle.Build(t, oracle.Spec{
		Files: safeApp(), Unpack: "*.node",
		Fuses: map[string]bool{"RunAsNode": false, "EnableNodeOptionsEnvironmentVariable": false,
			"EnableNodeCliInspectArguments": false, "EnableEmbeddedAsarIntegrityValidation": true, "OnlyLoadAppFromAsar": true},
		SentinelAt:   (1 << 20) - 10, // straddles the first read chunk
		BinarySize:   3 << 20,
		BinaryTokens: "Mozilla/5.0 Chrome/130.0.6723.137 Electron/33.2.1 Safari/537.36",
	})
	r, err := production.Validate(context.Background(), app, production.Options{ListLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if r.ArtifactType != production.ArtifactLinuxDir || r.Binary != filepath.Join(app, "myapp") {
		t.Fatalf("artifact %s binary %s", r.ArtifactType, r.Binary)
	}
	// Fuses: every state equals what @electron/fuses reads.
	if r.Fuses == nil || r.Fuses.Offset != (1<<20)-10 || len(r.Fuses.Fuses) != 9 {
		t.Fatalf("fuses: %+v", r.Fuses)
	}
	for _, f := range r.Fuses.Fuses {
		want := map[string]string{"ENABLE": "enabled", "DISABLE": "disabled", "REMOVED": "removed"}[o.Fuses[f.Name]]
		if f.State != want {
			t.Errorf("fuse %s: %s, oracle %s", f.Name, f.State, o.Fuses[f.Name])
		}
	}
	// Files and folders: the same set as asar.listPackage.
	seen := map[string]bool{}
	for _, p := range r.Asar.List {
		for d := p; d != "." && d != ""; d = path.Dir(d) {
			seen[d] = true
		}
	}
	var got []string
	for p := range seen {
		got = append(got, p)
	}
	sort.Strings(got)
	want := append([]string(nil), o.Files...)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\noracle:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	sum := sha256.Sum256([]byte(o.Header))
	if r.Asar.HeaderSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("header hash %s, oracle header hashes to %x", r.Asar.HeaderSHA256, sum)
	}
	if r.Asar.Unpacked != 1 || r.Asar.AppName != "demo-app" || r.Asar.Main != "dist/main.js" {
		t.Errorf("asar report: %+v", r.Asar)
	}
	if r.Integrity.Checked != 9 || len(r.Integrity.Mismatches) != 0 || len(r.Integrity.Missing) != 0 {
		t.Errorf("integrity: %+v", r.Integrity)
	}
	for _, id := range []string{production.CheckFuses, production.CheckAsar, production.CheckAsarIntegrity, production.CheckVersions, production.CheckWebPreferences} {
		if c := checkOf(t, r, id); c.Status != production.Pass {
			t.Errorf("%s: %s: %s", id, c.Status, c.Detail)
		}
	}
	if !r.Passed || r.Summary.Pass != 5 {
		t.Errorf("passed %v summary %+v", r.Passed, r.Summary)
	}
	if r.Versions.Electron != "33.2.1" || r.Versions.Chromium != "130.0.6723.137" || r.Versions.DeclaredElectron != "^33.0.0" {
		t.Errorf("versions: %+v", r.Versions)
	}
	if r.Debugging.Inspect.Status != "blocked" || r.Debugging.SIGUSR1.Status != "blocked" || r.Debugging.ExternalMain.Status != "blocked" {
		t.Errorf("debugging: %+v", r.Debugging)
	}
	// The launch check says the same in advance.
	err = production.LaunchBlock(context.Background(), r.Binary, production.Needs{Inspect: true, ExternalMain: true})
	if errs.CodeOf(err) != errs.FusesBlockLaunch || errs.As(err).Details["fuse"] != "EnableNodeCliInspectArguments" {
		t.Errorf("LaunchBlock: %v", err)
	}
}

// TestRiskyFusesAndWebPreferencesFail: fuses left on and literal
// nodeIntegration/contextIsolation settings (minified too) are verified
// failures, and the debugging verdicts say a dev launch would work.
func TestRiskyFusesAndWebPreferencesFail(t *testing.T) {
	files := safeApp()
	files["dist/main.js"] = "a\nnew BrowserWindow({webPreferences:{nodeIntegration:!0,contextIsolation:!1,\"webSecurity\": false}})"
	app, _ := oracle.Build(t, oracle.Spec{Files: files, Fuses: map[string]bool{"RunAsNode": true, "OnlyLoadAppFromAsar": false}})
	r, err := production.Validate(context.Background(), app, production.Options{Checks: []string{"fuses", "web-preferences"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Checks) != 2 || r.Passed || r.Summary.Fail != 2 {
		t.Fatalf("checks %+v", r.Checks)
	}
	if c := checkOf(t, r, "fuses"); !strings.Contains(c.Detail, "RunAsNode") || len(c.NextActions) == 0 {
		t.Errorf("fuses: %+v", c)
	}
	wp := r.WebPreferences
	if len(wp.Risky) != 3 || wp.Risky[0].Setting != "nodeIntegration" || !wp.Risky[0].Value || wp.Risky[0].Line != 2 {
		t.Errorf("risky: %+v", wp.Risky)
	}
	if r.Debugging.Inspect.Status != "accepted" || r.Debugging.ExternalMain.Status != "accepted" || r.Debugging.RemoteDebugging.Status != "accepted" {
		t.Errorf("debugging: %+v", r.Debugging)
	}
	if err := production.LaunchBlock(context.Background(), r.Binary, production.Needs{Inspect: true, ExternalMain: true}); err != nil {
		t.Errorf("LaunchBlock: %v", err)
	}
}

// TestOnlyLoadAppFromAsarBlocksADevLaunch: inspect allowed but the app may
// only load from app.asar: a dev launch with main is refused in advance,
// an inject is not.
func TestOnlyLoadAppFromAsarBlocksADevLaunch(t *testing.T) {
	app, _ := oracle.Build(t, oracle.Spec{Files: safeApp(), Fuses: map[string]bool{"OnlyLoadAppFromAsar": true}})
	bin := filepath.Join(app, "myapp")
	err := production.LaunchBlock(context.Background(), bin, production.Needs{Inspect: true, ExternalMain: true})
	if errs.CodeOf(err) != errs.FusesBlockLaunch || errs.As(err).Details["fuse"] != "OnlyLoadAppFromAsar" {
		t.Fatalf("dev launch: %v", err)
	}
	if err := production.LaunchBlock(context.Background(), bin, production.Needs{Inspect: true}); err != nil {
		t.Fatalf("inject: %v", err)
	}
}

// TestTamperedArchiveFailsIntegrity: one byte changed inside a packed file
// (after the header) is a failed integrity check naming that file; a
// deleted unpacked file fails the asar check.
func TestTamperedArchiveFailsIntegrity(t *testing.T) {
	app, _ := oracle.Build(t, oracle.Spec{Files: safeApp(), Unpack: "*.node"})
	archive := filepath.Join(app, "resources", "app.asar")
	a, err := production.OpenArchive(archive)
	if err != nil {
		t.Fatal(err)
	}
	e := a.Find("dist/ui/index.html")
	f, err := os.OpenFile(archive, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("X"), a.DataOffset+e.Offset+3); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Remove(filepath.Join(app, "resources", "app.asar.unpacked", "native", "addon.node")); err != nil {
		t.Fatal(err)
	}
	r, err := production.Validate(context.Background(), app, production.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := checkOf(t, r, "asar-integrity")
	if c.Status != production.Fail || !strings.Contains(c.Detail, "dist/ui/index.html") {
		t.Errorf("integrity: %+v", c)
	}
	if c := checkOf(t, r, "asar"); c.Status != production.Fail || !strings.Contains(c.Detail, "native/addon.node") {
		t.Errorf("asar: %+v", c)
	}
	if checkOf(t, r, "fuses").Status != production.Unknown { // no binary built
		t.Errorf("fuses without a binary: %+v", checkOf(t, r, "fuses"))
	}
	if r.Passed {
		t.Error("a tampered app passed")
	}
}

// TestBadInput: each wrong artifact is a coded error naming what was wrong.
func TestBadInput(t *testing.T) {
	app, _ := oracle.Build(t, oracle.Spec{Files: safeApp()})
	archive := filepath.Join(app, "resources", "app.asar")
	dir := t.TempDir()
	b, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	headerSize := binary.LittleEndian.Uint32(b[4:8])
	truncated := filepath.Join(dir, "truncated.asar")
	os.WriteFile(truncated, b[:8+headerSize/2], 0o644)
	short := filepath.Join(dir, "short.asar")
	os.WriteFile(short, b[:5], 0o644)
	garbage := filepath.Join(dir, "garbage.asar")
	os.WriteFile(garbage, []byte("this is not an archive at all, just text"), 0o644)
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello"), 0o644)
	fakeImage := filepath.Join(dir, "My.AppImage")
	os.WriteFile(fakeImage, []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00"), 0o755)
	for _, tc := range []struct {
		path   string
		checks []string
		code   errs.Code
		says   string
	}{
		{truncated, nil, errs.AsarInvalid, "truncated"},
		{short, nil, errs.AsarInvalid, "size pickle"},
		{garbage, nil, errs.AsarInvalid, "not 4"},
		{text, nil, errs.UnsupportedArtifact, "expected an app folder"},
		{fakeImage, nil, errs.UnsupportedArtifact, "AppImage magic"},
		{dir, nil, errs.UnsupportedArtifact, "resources/app.asar"},
		{filepath.Join(dir, "missing"), nil, errs.FileNotFound, "does not exist"},
		{"relative/app", nil, errs.AbsolutePathRequired, "not absolute"},
		{"", nil, errs.BadArgument, "appPath"},
		{app, []string{"fuses", "signing"}, errs.BadArgument, `unknown check "signing"`},
	} {
		_, err := production.Validate(context.Background(), tc.path, production.Options{Checks: tc.checks})
		if errs.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v (want %s saying %q)", tc.path, err, tc.code, tc.says)
		}
		if _, ok := errs.Lookup(errs.CodeOf(err)); !ok {
			t.Errorf("%s: unregistered code %s", tc.path, errs.CodeOf(err))
		}
	}
	// The same truncated archive inside an app folder is a verified failure.
	if err := os.WriteFile(archive, b[:8+headerSize+10], 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := production.Validate(context.Background(), app, production.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := checkOf(t, r, "asar"); c.Status != production.Fail || !strings.Contains(c.Detail, "past the end") {
		t.Errorf("cut archive in an app: %+v", c)
	}
}

// TestAsarGivenDirectly: an .asar alone runs the archive checks, and the
// debugging verdicts say they are unknown (no binary).
func TestAsarGivenDirectly(t *testing.T) {
	app, _ := oracle.Build(t, oracle.Spec{Files: safeApp()})
	r, err := production.Validate(context.Background(), filepath.Join(app, "resources", "app.asar"), production.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.ArtifactType != production.ArtifactAsar || len(r.Checks) != 3 || !r.Passed || r.Debugging.Inspect.Status != "unknown" {
		t.Fatalf("%+v", r)
	}
}

// FuzzOpenArchive: no input crashes the header parser.
func FuzzOpenArchive(f *testing.F) {
	f.Add([]byte{4, 0, 0, 0, 16, 0, 0, 0, 12, 0, 0, 0, 10, 0, 0, 0, '{', '"', 'f', 'i', 'l', 'e', 's', '"', ':', '{', '}', '}'})
	f.Add([]byte{4, 0, 0, 0, 255, 255, 255, 255})
	f.Add([]byte(`{"files":{}}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "f.asar")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := production.OpenArchive(p)
		if err == nil {
			_, _ = a.CheckIntegrity(context.Background())
		}
	})
}
