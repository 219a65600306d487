package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// needNPM finds npm; CI (CI=true) fails without it, a local run skips.
func needNPM(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds a release and installs it with npm")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("npm is not installed")
		}
		t.Skip("npm is not installed (CI not true; with CI=true this fails)")
	}
}

// TestNPMPackageStartsTheServer: the release's npm packages for this
// platform, packed with npm pack and installed from the tarballs, start the
// server through npx: --version names the release's version, and an MCP
// initialize written on stdin is answered on stdout.
func TestNPMPackageStartsTheServer(t *testing.T) {
	needNPM(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	host := runtime.GOOS + "/" + runtime.GOARCH
	dist := t.TempDir()
	if err := run(ctx, "0.9.1-test", dist, host, false, io.Discard); err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil || !regexp.MustCompile(`(?m)^[0-9a-f]{64}  understudy_0\.9\.1-test_`).Match(sums) {
		t.Fatalf("SHA256SUMS: %v %q", err, sums)
	}
	packs := t.TempDir()
	var tarballs []string
	ents, err := os.ReadDir(filepath.Join(dist, "npm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		out, err := exec.CommandContext(ctx, "npm", "pack", "--silent", "--pack-destination", packs, filepath.Join(dist, "npm", e.Name())).Output()
		if err != nil {
			t.Fatalf("npm pack %s: %v", e.Name(), err)
		}
		tarballs = append(tarballs, filepath.Join(packs, strings.TrimSpace(string(out))))
	}
	if len(tarballs) != 2 {
		t.Fatalf("want the launcher and one platform package, got %v", tarballs)
	}
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"npx-check","version":"1.0.0","private":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	install := exec.CommandContext(ctx, "npm", append([]string{"install", "--offline", "--no-audit", "--no-fund"}, tarballs...)...)
	install.Dir = proj
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	npx := func(args ...string) *exec.Cmd {
		c := exec.CommandContext(ctx, "npx", append([]string{"--no-install", "understudy"}, args...)...)
		c.Dir = proj
		return c
	}
	out, err := npx("--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "understudy 0.9.1-test ") {
		t.Fatalf("npx understudy --version: %v %q", err, out)
	}
	srv := npx()
	stdin, _ := srv.StdinPipe()
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"npx-check","version":"0"}}}`+"\n")
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no reply to initialize: %v", err)
	}
	var reply struct {
		ID     int `json:"id"`
		Result struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &reply); err != nil || reply.ID != 1 || reply.Result.ServerInfo.Name != "understudy" || reply.Result.ServerInfo.Version != "0.9.1-test" {
		t.Fatalf("initialize reply %q (%v)", line, err)
	}
	_ = stdin.Close() // stdin closed: the server exits
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not exit when stdin closed")
	}
}

// TestServerJSON: server.json has the shape the MCP registry requires, and
// the npm package it names is the one the release writes (same name,
// version and mcpName).
func TestServerJSON(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Schema      string `json:"$schema"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Version     string `json:"version"`
		Packages    []struct {
			RegistryType string `json:"registryType"`
			Identifier   string `json:"identifier"`
			Version      string `json:"version"`
			Transport    struct {
				Type string `json:"type"`
			} `json:"transport"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	switch {
	case !strings.HasPrefix(s.Schema, "https://static.modelcontextprotocol.io/schemas/"):
		t.Errorf("$schema %q", s.Schema)
	case strings.Count(s.Name, "/") != 1 || s.Name != mcpName:
		t.Errorf("name %q", s.Name)
	case len(s.Description) == 0 || len(s.Description) > 100:
		t.Errorf("description must be 1–100 characters, is %d", len(s.Description))
	case !semver.MatchString(s.Version):
		t.Errorf("version %q", s.Version)
	case len(s.Packages) != 1 || s.Packages[0].RegistryType != "npm" || s.Packages[0].Identifier != npmScope+"/understudy" ||
		s.Packages[0].Version != s.Version || s.Packages[0].Transport.Type != "stdio":
		t.Errorf("packages %+v", s.Packages)
	}
}

// TestLauncherNamesTheRoutes (issue 29): without its platform package the
// npm launcher names the package it looked for, where it looked and the
// other routes (UNDERSTUDY_BINARY, the release tarballs), and advises
// reinstalling without --no-optional only when npm was told to omit
// optional dependencies; UNDERSTUDY_BINARY runs the binary it names.
func TestLauncherNamesTheRoutes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("GOOS=windows: the fake binary is a shell script (CI runs on linux, where this runs)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed (with CI=true this fails)")
	}
	dir := filepath.Join(t.TempDir(), "understudy", "bin") // no node_modules anywhere above
	if err := copyFile(filepath.Join("..", "..", "npm", "understudy", "bin", "understudy.js"), filepath.Join(dir, "understudy.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	launch := func(env ...string) (string, string, int) {
		cmd := exec.Command(node, filepath.Join(dir, "understudy.js"), "--version")
		cmd.Env = append(os.Environ(), "UNDERSTUDY_BINARY=", "npm_config_omit=", "npm_config_optional=")
		cmd.Env = append(cmd.Env, env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	pkg := "@understudy-dev/understudy-" + map[string]string{"darwin": "darwin", "linux": "linux", "windows": "win32"}[runtime.GOOS] +
		"-" + map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	out, errText, code := launch()
	for _, want := range []string{pkg + " is not installed", "looked for " + pkg, filepath.Join(dir, "node_modules"), "UNDERSTUDY_BINARY", "make release", "npm pack"} {
		if !strings.Contains(errText, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errText)
		}
	}
	if code != 1 || out != "" || strings.Contains(errText, "no-optional") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errText)
	}
	if _, errText, _ = launch("npm_config_omit=optional"); !strings.Contains(errText, "reinstall without that setting") {
		t.Errorf("with omit=optional: stderr does not say so:\n%s", errText)
	}
	if _, errText, code = launch("UNDERSTUDY_BINARY=" + filepath.Join(dir, "nope")); code != 1 || !strings.Contains(errText, "from UNDERSTUDY_BINARY") {
		t.Errorf("a missing UNDERSTUDY_BINARY: exit %d, %s", code, errText)
	}
	sh := filepath.Join(t.TempDir(), "understudy")
	if err := os.WriteFile(sh, []byte("#!/bin/sh\necho \"understudy fake $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, errText, code = launch("UNDERSTUDY_BINARY=" + sh); code != 0 || out != "understudy fake --version\n" {
		t.Errorf("UNDERSTUDY_BINARY: exit %d, stdout %q, stderr %q", code, out, errText)
	}
}

// TestOneLicence (issue 29): LICENSE is the MIT licence, and every manifest
// says so: server.json, the npm packages the release writes (each carrying
// LICENSE) and the SBOMs' main component.
func TestOneLicence(t *testing.T) {
	lic, err := os.ReadFile(filepath.Join("..", "..", "LICENSE"))
	if err != nil || !strings.HasPrefix(string(lic), "MIT License\n") || license != "MIT" {
		t.Fatalf("LICENSE: %v %.40q (license const %q)", err, lic, license)
	}
	var sj struct {
		Meta map[string]struct {
			License string `json:"license"`
		} `json:"_meta"`
	}
	b, _ := os.ReadFile(filepath.Join("..", "..", "server.json"))
	if err := json.Unmarshal(b, &sj); err != nil || sj.Meta["io.modelcontextprotocol.registry/publisher-provided"].License != license {
		t.Errorf("server.json: %v %+v", err, sj.Meta)
	}

	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	npmDir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "understudy")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := platform{"linux", "amd64"}
	if err := npmPlatformPackage(root, npmDir, p, "0.9.1", bin); err != nil {
		t.Fatal(err)
	}
	if err := npmMainPackage(root, npmDir, "0.9.1", []platform{p}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"understudy", "understudy-linux-x64"} {
		var pj struct {
			License string   `json:"license"`
			Files   []string `json:"files"`
		}
		b, err := os.ReadFile(filepath.Join(npmDir, name, "package.json"))
		if err == nil {
			err = json.Unmarshal(b, &pj)
		}
		if err != nil || pj.License != license || !slices.Contains(pj.Files, "LICENSE") {
			t.Errorf("%s/package.json: %v license %q files %v", name, err, pj.License, pj.Files)
		}
		if got, _ := os.ReadFile(filepath.Join(npmDir, name, "LICENSE")); string(got) != string(lic) {
			t.Errorf("%s carries no LICENSE", name)
		}
	}

	// The SBOM: cyclonedx-gomod's shape (trimmed), marked by markSBOM.
	sbom := filepath.Join(t.TempDir(), "x.cdx.json")
	write := func(v string) {
		body := `{"bomFormat":"CycloneDX","specVersion":"1.6","metadata":{"component":{"type":"application","name":"github.com/understudy-dev/understudy","version":"` + v + `"}},"components":[]}`
		if err := os.WriteFile(sbom, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("v0.9.1")
	if err := markSBOM(sbom, "0.9.1"); err != nil {
		t.Fatal(err)
	}
	var bom struct {
		SpecVersion string `json:"specVersion"`
		Metadata    struct {
			Component struct {
				Version  string `json:"version"`
				Licenses []struct {
					License struct {
						ID string `json:"id"`
					} `json:"license"`
				} `json:"licenses"`
			} `json:"component"`
		} `json:"metadata"`
	}
	b, _ = os.ReadFile(sbom)
	if err := json.Unmarshal(b, &bom); err != nil || bom.SpecVersion != "1.6" || len(bom.Metadata.Component.Licenses) != 1 || bom.Metadata.Component.Licenses[0].License.ID != license {
		t.Errorf("marked SBOM: %v %s", err, b)
	}
	write("v0.0.0-20261207000000-abcdef123456") // the pseudo-version of an unstamped build
	if err := markSBOM(sbom, "0.9.1"); err == nil || !strings.Contains(err.Error(), "not the release's 0.9.1") {
		t.Errorf("an SBOM with another version: %v", err)
	}
}

// TestOneVersion (issue 29): make build stamps the version and commit
// tools/release stamps (server.json's version, git's commit), from the one
// function both use; a binary built with those flags reports them.
func TestOneVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs make and go build")
	}
	if _, err := exec.LookPath("make"); err != nil {
		if os.Getenv("CI") != "true" {
			t.Skip("make is not installed (CI not true; with CI=true this fails)")
		}
		t.Fatal("make is not installed; CI runs make test, so it must be there")
	}
	ctx := context.Background()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	v, c, err := stamp(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	sv, _ := serverJSONVersion(filepath.Join(root, "server.json"))
	if v != sv || c == "unknown" || len(c) < 40 {
		t.Fatalf("stamp: version %q (server.json %q), commit %q", v, sv, c)
	}
	want := ldflags(v, c)
	out, err := exec.Command("make", "-C", root, "-n", "build").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "-ldflags '"+want+"'") {
		t.Fatalf("make -n build does not stamp %q: %v\n%s", want, err, out)
	}
	bin := filepath.Join(t.TempDir(), "understudy")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", want, "-o", bin, "./cmd/understudy")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	got, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(got), "understudy "+v+" (commit "+c[:12]) || strings.Contains(string(got), "unknown") {
		t.Fatalf("--version %q (%v), want version %s and commit %s", got, err, v, c[:12])
	}
}
