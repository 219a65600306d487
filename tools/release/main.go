// Command release builds understudy's release artifacts into a folder
// (default dist/): static binaries for linux, darwin and windows on amd64
// and arm64, an archive of each, a CycloneDX SBOM of each binary,
// SHA256SUMS, and the npm packages (one per platform carrying its binary,
// and the package MCP hosts start with npx). Nothing is published.
//
//	go run ./tools/release -version 0.2.0 [-out dist] [-only linux/amd64]
//
// `make release` runs it. The SBOM tool is pinned in tools/tools.mod and
// built from the Go module proxy like any dependency; nothing is downloaded
// from elsewhere.
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// A platform is one GOOS/GOARCH pair and its npm names.
type platform struct {
	GOOS, GOARCH string
}

func (p platform) String() string { return p.GOOS + "/" + p.GOARCH }

// npmOS and npmCPU are Node's names (process.platform, process.arch).
func (p platform) npmOS() string {
	if p.GOOS == "windows" {
		return "win32"
	}
	return p.GOOS
}

func (p platform) npmCPU() string {
	if p.GOARCH == "amd64" {
		return "x64"
	}
	return p.GOARCH
}

func (p platform) exe() string {
	if p.GOOS == "windows" {
		return "understudy.exe"
	}
	return "understudy"
}

// platforms are every target the release builds.
var platforms = []platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// npmScope names the npm packages: npmScope/understudy and
// npmScope/understudy-<os>-<cpu>.
const npmScope = "@understudy-dev"

// license is the project's licence (LICENSE), as an SPDX id: every
// manifest the release writes and every SBOM says it, as server.json does.
const license = "MIT"

// mcpName is the server's name in the MCP registry (server.json).
const mcpName = "io.github.understudy-dev/understudy"

var semver = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

func main() {
	version := flag.String("version", "", "the version to stamp, semantic (0.2.0); default: the one in server.json")
	out := flag.String("out", "dist", "the folder to write (emptied first)")
	only := flag.String("only", "", "build only these platforms, comma separated (linux/amd64,…)")
	skipSBOM := flag.Bool("no-sbom", false, "skip the SBOMs (they need the pinned cyclonedx-gomod)")
	printLdflags := flag.Bool("print-ldflags", false, "print the -ldflags that stamp version and commit (make build uses them) and exit")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *printLdflags {
		v, c, err := stamp(ctx, *version)
		if err != nil {
			fmt.Fprintln(os.Stderr, "release:", err)
			os.Exit(1)
		}
		fmt.Println(ldflags(v, c))
		return
	}
	if err := run(ctx, *version, *out, *only, !*skipSBOM, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, version, out, only string, sbom bool, log io.Writer) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	version, commit, err := stamp(ctx, version)
	if err != nil {
		return err
	}
	targets, err := pick(only)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	var sums []string
	npmDir := filepath.Join(out, "npm")
	for i, p := range targets {
		fmt.Fprintf(log, "release: [%d/%d] building %s\n", i+1, len(targets), p)
		dir := filepath.Join(out, fmt.Sprintf("understudy_%s_%s_%s", version, p.GOOS, p.GOARCH))
		bin := filepath.Join(dir, p.exe())
		if err := build(ctx, root, p, version, commit, bin); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, doc := range []string{"README.md", "LICENSE"} {
			if _, err := os.Stat(filepath.Join(root, doc)); err == nil {
				if err := copyFile(filepath.Join(root, doc), filepath.Join(dir, doc), 0o644); err != nil {
					return err
				}
			}
		}
		if sbom {
			if err := writeSBOM(ctx, root, bin, version, filepath.Join(out, filepath.Base(dir)+".cdx.json")); err != nil {
				return fmt.Errorf("%s: sbom: %w", p, err)
			}
		}
		archive, err := pack(dir, p)
		if err != nil {
			return err
		}
		if err := npmPlatformPackage(root, npmDir, p, version, bin); err != nil {
			return err
		}
		_ = archive
	}
	if err := npmMainPackage(root, npmDir, version, targets); err != nil {
		return err
	}
	// Checksums of what a user downloads: archives and SBOMs.
	ents, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		sum, err := sha256File(filepath.Join(out, e.Name()))
		if err != nil {
			return err
		}
		sums = append(sums, sum+"  "+e.Name())
	}
	sort.Strings(sums)
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Join(sums, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(log, "release: %s written: %d platforms, %d checksummed files\n", out, len(targets), len(sums))
	return nil
}

func pick(only string) ([]platform, error) {
	if only == "" {
		return platforms, nil
	}
	var out []platform
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, p := range platforms {
			if p.String() == strings.TrimSpace(name) {
				out = append(out, p)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("-only: no platform %q (platforms: linux/amd64, linux/arm64, darwin/amd64, darwin/arm64, windows/amd64, windows/arm64)", name)
		}
	}
	return out, nil
}

// repoRoot is the folder of the main module's go.mod.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run release inside the understudy repository")
	}
	return filepath.Dir(mod), nil
}

// gitCommit is HEAD's commit, with "+dirty" when tracked files differ
// from it; "unknown" outside a git checkout.
func gitCommit(ctx context.Context, root string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if exec.CommandContext(ctx, "git", "-C", root, "diff", "--quiet", "HEAD", "--").Run() != nil {
		c += "+dirty"
	}
	return c
}

// stamp is the one place a build's version and commit come from (make
// build through -print-ldflags, this release, the SBOMs): the version
// given, else server.json's; the commit from git.
func stamp(ctx context.Context, version string) (string, string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", "", err
	}
	if version == "" {
		if version, err = serverJSONVersion(filepath.Join(root, "server.json")); err != nil {
			return "", "", err
		}
	}
	if !semver.MatchString(version) {
		return "", "", fmt.Errorf("-version %q is not a semantic version such as 0.2.0", version)
	}
	return version, gitCommit(ctx, root), nil
}

// ldflags stamps version and commit into cmd/understudy (main.version,
// main.commit) and strips the symbol tables.
func ldflags(version, commit string) string {
	return fmt.Sprintf("-s -w -X main.version=%s -X main.commit=%s", version, commit)
}

// build compiles a static, reproducible binary: no cgo, trimmed paths,
// version and commit stamped.
func build(ctx context.Context, root string, p platform, version, commit, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=true",
		"-ldflags", ldflags(version, commit),
		"-o", bin, "./cmd/understudy")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.GOOS, "GOARCH="+p.GOARCH)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// writeSBOM runs the pinned cyclonedx-gomod on a built binary (its build
// information names every module compiled in), with the release's version
// as the main component's (not the pseudo-version Go recorded), then
// states the project's licence on that component (markSBOM).
func writeSBOM(ctx context.Context, root, bin, version, dest string) error {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	absDest, err := filepath.Abs(dest)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "tool", "-modfile=tools/tools.mod", "cyclonedx-gomod", "bin", "-json", "-version", "v"+version, "-output", absDest, abs)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return err
	}
	return markSBOM(absDest, version)
}

// markSBOM checks that a CycloneDX SBOM's main component carries the
// release's version and gives it the project's licence (the tool cannot
// know it: the binary's build information does not name one).
func markSBOM(path, version string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var bom map[string]any
	if err := json.Unmarshal(b, &bom); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	meta, _ := bom["metadata"].(map[string]any)
	comp, _ := meta["component"].(map[string]any)
	if comp == nil {
		return fmt.Errorf("%s: no metadata.component", path)
	}
	if v, _ := comp["version"].(string); strings.TrimPrefix(v, "v") != version {
		return fmt.Errorf("%s: the main component's version is %q, not the release's %s", path, v, version)
	}
	comp["licenses"] = []any{map[string]any{"license": map[string]any{"id": license}}}
	out, err := json.MarshalIndent(bom, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}

// pack writes dir as dir.tar.gz (dir.zip for Windows) beside it.
func pack(dir string, p platform) (string, error) {
	if p.GOOS == "windows" {
		return dir + ".zip", zipDir(dir, dir+".zip")
	}
	return dir + ".tar.gz", tarDir(dir, dir+".tar.gz")
}

func tarDir(dir, dest string) error {
	f, err := os.Create(dest)
	if err != nil {
		return err
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	base := filepath.Base(dir)
	err = eachFile(dir, func(rel string, info os.FileInfo, r io.Reader) error {
		h, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		h.Name = base + "/" + filepath.ToSlash(rel)
		h.ModTime = time.Unix(0, 0) // reproducible
		h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		_, err = io.Copy(tw, r)
		return err
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Close()
}

func zipDir(dir, dest string) error {
	f, err := os.Create(dest)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	base := filepath.Base(dir)
	err = eachFile(dir, func(rel string, info os.FileInfo, r io.Reader) error {
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		h.Name = base + "/" + filepath.ToSlash(rel)
		h.Method = zip.Deflate
		h.Modified = time.Unix(0, 0).UTC()
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	})
	if err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

// eachFile calls fn for every regular file under dir, in name order.
func eachFile(dir string, fn func(rel string, info os.FileInfo, r io.Reader) error) error {
	return filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return fn(rel, info, f)
	})
}

func copyFile(src, dst string, mode os.FileMode) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, mode)
}

func sha256File(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// npmPlatformPackage writes npm/understudy-<os>-<cpu>/: the binary and a
// package.json whose os and cpu fields let npm install it only where it
// runs (esbuild's layout).
func npmPlatformPackage(root, npmDir string, p platform, version, bin string) error {
	name := fmt.Sprintf("understudy-%s-%s", p.npmOS(), p.npmCPU())
	dir := filepath.Join(npmDir, name)
	if err := copyFile(bin, filepath.Join(dir, "bin", p.exe()), 0o755); err != nil {
		return err
	}
	if err := copyFile(filepath.Join(root, "LICENSE"), filepath.Join(dir, "LICENSE"), 0o644); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, "package.json"), map[string]any{
		"name":            npmScope + "/" + name,
		"version":         version,
		"description":     fmt.Sprintf("The understudy binary for %s %s; installed by %s/understudy.", p.npmOS(), p.npmCPU(), npmScope),
		"license":         license,
		"os":              []string{p.npmOS()},
		"cpu":             []string{p.npmCPU()},
		"files":           []string{"bin", "LICENSE"},
		"preferUnplugged": true,
	})
}

// npmMainPackage writes npm/understudy/: the launcher (npm/understudy/bin
// in the repository) and a package.json whose optional dependencies are
// the platform packages of this version.
func npmMainPackage(root, npmDir, version string, targets []platform) error {
	dir := filepath.Join(npmDir, "understudy")
	if err := copyFile(filepath.Join(root, "npm", "understudy", "bin", "understudy.js"), filepath.Join(dir, "bin", "understudy.js"), 0o755); err != nil {
		return err
	}
	if err := copyFile(filepath.Join(root, "npm", "understudy", "README.md"), filepath.Join(dir, "README.md"), 0o644); err != nil {
		return err
	}
	if err := copyFile(filepath.Join(root, "LICENSE"), filepath.Join(dir, "LICENSE"), 0o644); err != nil {
		return err
	}
	optional := map[string]string{}
	for _, p := range targets {
		optional[fmt.Sprintf("%s/understudy-%s-%s", npmScope, p.npmOS(), p.npmCPU())] = version
	}
	return writeJSON(filepath.Join(dir, "package.json"), map[string]any{
		"name":                 npmScope + "/understudy",
		"version":              version,
		"description":          "Drive Electron apps and Chromium from AI agents (MCP) and scripts (CDP).",
		"license":              license,
		"mcpName":              mcpName,
		"bin":                  map[string]string{"understudy": "bin/understudy.js"},
		"files":                []string{"bin", "README.md", "LICENSE"},
		"engines":              map[string]string{"node": ">=18"},
		"optionalDependencies": optional,
	})
}

func writeJSON(p string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, append(b, '\n'), 0o644)
}

// serverJSONVersion reads the version server.json declares.
func serverJSONVersion(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	var s struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	return s.Version, nil
}
