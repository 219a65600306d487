package production

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ReportSchema names the JSON report this package writes (version 1).
const ReportSchema = "understudy-production-validation"

// The check ids.
const (
	CheckFuses          = "fuses"
	CheckAsar           = "asar"
	CheckAsarIntegrity  = "asar-integrity"
	CheckVersions       = "versions"
	CheckWebPreferences = "web-preferences"
	CheckAppImage       = "appimage"
)

// AllChecks lists every check id in report order.
var allChecks = []string{CheckFuses, CheckAsar, CheckAsarIntegrity, CheckVersions, CheckWebPreferences, CheckAppImage}

// Checks returns every check id in report order.
func Checks() []string { return append([]string(nil), allChecks...) }

var checkTitles = map[string]string{
	CheckFuses:          "Electron fuses",
	CheckAsar:           "app.asar archive",
	CheckAsarIntegrity:  "app.asar integrity hashes",
	CheckVersions:       "Electron and Chromium versions",
	CheckWebPreferences: "Literal webPreferences in the main bundle",
	CheckAppImage:       "AppImage structure and signature",
}

// The artifact types.
const (
	ArtifactLinuxDir   = "linux-unpacked"
	ArtifactWindowsDir = "windows-unpacked"
	ArtifactMacApp     = "macos-app"
	ArtifactAsar       = "asar"
	ArtifactAppImage   = "appimage"
	ArtifactBinary     = "electron-binary"
)

// The statuses of a check.
const (
	Pass    = "pass"
	Fail    = "fail"
	Unknown = "unknown"
)

// Check is one check's verdict. fail is verified bad; unknown is missing
// evidence.
type Check struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Status      string   `json:"status"`
	Detail      string   `json:"detail"`
	Evidence    string   `json:"evidence,omitempty"`
	NextActions []string `json:"next_actions,omitempty"`
}

// Summary counts the checks by status.
type Summary struct {
	Pass    int `json:"pass"`
	Fail    int `json:"fail"`
	Unknown int `json:"unknown"`
}

// AsarReport describes the archive.
type AsarReport struct {
	Path            string   `json:"path"`
	Bytes           int64    `json:"bytes"`
	HeaderSize      int64    `json:"header_size"`
	HeaderSHA256    string   `json:"header_sha256"`
	Files           int      `json:"files"`
	Directories     int      `json:"directories"`
	Links           int      `json:"links"`
	Unpacked        int      `json:"unpacked_files"`
	FileBytes       int64    `json:"file_bytes"`
	List            []string `json:"list"` // the first files, sorted
	ListTruncated   bool     `json:"list_truncated,omitempty"`
	Main            string   `json:"main,omitempty"`
	AppName         string   `json:"app_name,omitempty"`
	AppVersion      string   `json:"app_version,omitempty"`
	ExpectedHeader  string   `json:"expected_header_sha256,omitempty"` // from Info.plist ElectronAsarIntegrity
	ExpectedHeaderF string   `json:"expected_header_source,omitempty"`
}

// Versions are what the artifact says about its Electron and Chromium.
type Versions struct {
	Electron         string `json:"electron,omitempty"`
	ElectronSource   string `json:"electron_source,omitempty"`
	Chromium         string `json:"chromium,omitempty"`
	ChromiumSource   string `json:"chromium_source,omitempty"`
	DeclaredElectron string `json:"declared_electron,omitempty"` // package.json range, not the shipped binary
}

// Verdict says whether a debugging switch would be honoured.
type Verdict struct {
	Status string `json:"status"` // accepted, blocked, unknown
	Reason string `json:"reason"`
}

// Debugging says in advance how the debugging switches understudy uses
// would fare against the fuses.
type Debugging struct {
	Inspect         Verdict `json:"inspect"`               // --inspect=0 on a dev launch
	SIGUSR1         Verdict `json:"sigusr1"`               // opening the inspector of a running app (inject)
	RemoteDebugging Verdict `json:"remote_debugging_port"` // --remote-debugging-port
	ExternalMain    Verdict `json:"external_main"`         // loading a main script from outside app.asar
}

// Report is the whole validation.
type Report struct {
	Schema         string           `json:"schema"`
	SchemaVersion  int              `json:"schema_version"`
	AppPath        string           `json:"app_path"`
	ArtifactType   string           `json:"artifact_type"`
	Passed         bool             `json:"passed"`
	Summary        Summary          `json:"summary"`
	Checks         []Check          `json:"checks"`
	Binary         string           `json:"binary,omitempty"`
	Fuses          *FuseWire        `json:"fuses,omitempty"`
	Asar           *AsarReport      `json:"asar,omitempty"`
	Integrity      *IntegrityResult `json:"integrity,omitempty"`
	Versions       *Versions        `json:"versions,omitempty"`
	WebPreferences *WebPreferences  `json:"web_preferences,omitempty"`
	Debugging      Debugging        `json:"debugging"`
}

// Options narrow a validation.
type Options struct {
	// Checks names the checks to run; empty runs the artifact's defaults.
	Checks []string
	// ListLimit caps AsarReport.List (default 100).
	ListLimit int
}

// artifact is what detection found on disk.
type artifact struct {
	kind      string
	binary    string // the Electron binary or framework carrying the fuses
	resources string // the folder holding app.asar / app
	asarPath  string
	plist     string // macOS Info.plist
}

// Validate inspects the packaged app at appPath. Bad input (a relative or
// missing path, an artifact of no known kind, an asar given directly whose
// header is broken, an unknown check) is an *errs.Error; everything found
// wrong in a readable artifact is a failed check in the report.
func Validate(ctx context.Context, appPath string, opts Options) (*Report, error) {
	if appPath == "" {
		return nil, errs.BadArg("appPath", "is required: the absolute path of an app folder, .app bundle, AppImage, Electron binary or .asar")
	}
	if !filepath.IsAbs(appPath) {
		return nil, errs.New(errs.AbsolutePathRequired, "appPath %q is not absolute", appPath)
	}
	for _, id := range opts.Checks {
		if _, ok := checkTitles[id]; !ok {
			return nil, errs.BadArg("checks", "unknown check %q; known: %s", id, strings.Join(allChecks, ", "))
		}
	}
	if opts.ListLimit <= 0 {
		opts.ListLimit = 100
	}
	appPath = filepath.Clean(appPath)
	art, err := detect(appPath)
	if err != nil {
		return nil, err
	}
	r := &Report{Schema: ReportSchema, SchemaVersion: 1, AppPath: appPath, ArtifactType: art.kind, Checks: []Check{}}
	want := opts.Checks
	if len(want) == 0 {
		want = defaults(art.kind)
	}
	run := map[string]bool{}
	for _, id := range want {
		run[id] = true
	}
	v := &validation{ctx: ctx, art: art, r: r, opts: opts}
	if err := v.gather(run); err != nil {
		return nil, err
	}
	for _, id := range allChecks {
		if !run[id] {
			continue
		}
		c := v.check(id)
		c.ID, c.Title = id, checkTitles[id]
		r.Checks = append(r.Checks, c)
		switch c.Status {
		case Pass:
			r.Summary.Pass++
		case Fail:
			r.Summary.Fail++
		default:
			r.Summary.Unknown++
		}
	}
	r.Debugging = debugging(r.Fuses, v.fuseErr, art)
	r.Passed = r.Summary.Fail == 0
	return r, nil
}

func defaults(kind string) []string {
	switch kind {
	case ArtifactAsar:
		return []string{CheckAsar, CheckAsarIntegrity, CheckWebPreferences}
	case ArtifactAppImage:
		return []string{CheckAppImage}
	}
	return []string{CheckFuses, CheckAsar, CheckAsarIntegrity, CheckVersions, CheckWebPreferences}
}

func unsupported(p, why string) error {
	return errs.New(errs.UnsupportedArtifact, "%s is not an artifact production_validate reads: %s", p, why).With("appPath", p)
}

func detect(p string) (*artifact, error) {
	st, err := os.Stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errs.New(errs.FileNotFound, "appPath %s does not exist", p).With("appPath", p)
	}
	if err != nil {
		return nil, errs.Wrap(errs.FileNotFound, err, "appPath "+p+" cannot be read")
	}
	if st.IsDir() {
		if strings.HasSuffix(p, ".app") {
			a := &artifact{kind: ArtifactMacApp, resources: filepath.Join(p, "Contents", "Resources"), plist: filepath.Join(p, "Contents", "Info.plist")}
			for _, fw := range []string{
				filepath.Join(p, "Contents", "Frameworks", "Electron Framework.framework", "Electron Framework"),
				filepath.Join(p, "Contents", "Frameworks", "Electron Framework.framework", "Versions", "A", "Electron Framework"),
			} {
				if isFile(fw) {
					a.binary = fw
					break
				}
			}
			a.asarPath = existing(filepath.Join(a.resources, "app.asar"))
			if a.binary == "" && a.asarPath == "" && !isDir(filepath.Join(a.resources, "app")) {
				return nil, unsupported(p, "a .app bundle with neither Electron Framework nor Contents/Resources/app.asar")
			}
			return a, nil
		}
		a := &artifact{kind: ArtifactLinuxDir, resources: filepath.Join(p, "resources")}
		a.asarPath = existing(filepath.Join(a.resources, "app.asar"))
		if a.asarPath == "" && !isDir(filepath.Join(a.resources, "app")) {
			return nil, unsupported(p, "a folder without resources/app.asar or resources/app (pass an unpacked Electron app folder, e.g. electron-builder's linux-unpacked)")
		}
		bin, windows := findBinary(p)
		a.binary = bin
		if windows {
			a.kind = ArtifactWindowsDir
		}
		return a, nil
	}
	if !st.Mode().IsRegular() {
		return nil, unsupported(p, "not a regular file or folder")
	}
	head := make([]byte, 16)
	f, err := os.Open(p)
	if err != nil {
		return nil, errs.Wrap(errs.FileNotFound, err, "appPath "+p+" cannot be read")
	}
	n, _ := io.ReadFull(f, head)
	f.Close()
	head = head[:n]
	switch {
	case strings.HasSuffix(strings.ToLower(p), ".asar"):
		if _, err := OpenArchive(p); err != nil {
			var ae *AsarError
			if errors.As(err, &ae) {
				return nil, errs.New(errs.AsarInvalid, "%s", ae.Error()).With("appPath", p).With("reason", ae.Reason)
			}
			return nil, errs.Wrap(errs.FileNotFound, err, "reading "+p)
		}
		return &artifact{kind: ArtifactAsar, asarPath: p}, nil
	case len(head) >= 11 && bytes.HasPrefix(head, []byte("\x7fELF")) && head[8] == 'A' && head[9] == 'I' && (head[10] == 1 || head[10] == 2):
		return &artifact{kind: ArtifactAppImage, binary: p}, nil
	case strings.HasSuffix(strings.ToLower(p), ".appimage"):
		return nil, unsupported(p, "named .AppImage but it has no AppImage magic (ELF with \"AI\\x01\" or \"AI\\x02\" at byte 8)")
	case executableMagic(head):
		dir := filepath.Dir(p)
		a := &artifact{kind: ArtifactBinary, binary: p, resources: filepath.Join(dir, "resources")}
		a.asarPath = existing(filepath.Join(a.resources, "app.asar"))
		return a, nil
	}
	return nil, unsupported(p, "expected an app folder, a .app bundle, an AppImage, an Electron executable (ELF, PE or Mach-O) or an .asar archive")
}

func executableMagic(h []byte) bool {
	switch {
	case bytes.HasPrefix(h, []byte("\x7fELF")), bytes.HasPrefix(h, []byte("MZ")):
		return true
	case bytes.HasPrefix(h, []byte{0xcf, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(h, []byte{0xce, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(h, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return true
	}
	return false
}

// findBinary picks the app's executable in an unpacked folder: the largest
// ELF or PE file at the top that is not a helper.
func findBinary(dir string) (string, bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	type cand struct {
		path string
		size int64
		pe   bool
	}
	var cands []cand
	for _, e := range ents {
		name := e.Name()
		low := strings.ToLower(name)
		if !e.Type().IsRegular() || low == "chrome-sandbox" || strings.HasPrefix(low, "chrome_crashpad") ||
			strings.Contains(low, ".so") || strings.HasSuffix(low, ".dll") || strings.HasSuffix(low, ".node") ||
			strings.HasSuffix(low, ".pak") || strings.HasSuffix(low, ".bin") || strings.HasSuffix(low, ".dat") {
			continue
		}
		p := filepath.Join(dir, name)
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		h := make([]byte, 4)
		n, _ := io.ReadFull(f, h)
		f.Close()
		if n < 4 {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if bytes.HasPrefix(h, []byte("\x7fELF")) || bytes.HasPrefix(h, []byte("MZ")) {
			cands = append(cands, cand{p, info.Size(), bytes.HasPrefix(h, []byte("MZ"))})
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].size > cands[j].size })
	return cands[0].path, cands[0].pe
}

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }
func isDir(p string) bool  { st, err := os.Stat(p); return err == nil && st.IsDir() }
func existing(p string) string {
	if isFile(p) {
		return p
	}
	return ""
}

// validation is the state of one Validate call.
type validation struct {
	ctx  context.Context
	art  *artifact
	r    *Report
	opts Options

	scan     *binaryScan
	scanErr  error
	fuseErr  error
	archive  *Archive
	asarErr  error
	files    appFiles
	pkg      *appPackage
	pkgErr   error
	intErr   error
	mainErr  error
	mainFile string
}

// gather reads what the requested checks need, each source once.
func (v *validation) gather(run map[string]bool) error {
	a, r := v.art, v.r
	needBinary := run[CheckFuses] || run[CheckVersions]
	if a.binary != "" && a.kind != ArtifactAppImage {
		r.Binary = a.binary
		if needBinary || true { // the debugging verdicts always need the fuses
			v.scan, v.scanErr = scanBinary(v.ctx, a.binary)
			if v.scanErr == nil && len(v.scan.sentinels) > 0 {
				r.Fuses, v.fuseErr = readWire(a.binary, v.scan.sentinels[0], len(v.scan.sentinels))
			}
			if v.scanErr != nil {
				v.fuseErr = v.scanErr
			}
		}
	}
	if err := v.ctx.Err(); err != nil {
		return errs.FromContext(v.ctx, errs.OperationTimeout, "validating the app")
	}
	if a.asarPath != "" && (run[CheckAsar] || run[CheckAsarIntegrity] || run[CheckWebPreferences] || run[CheckVersions]) {
		v.archive, v.asarErr = OpenArchive(a.asarPath)
		if v.archive != nil {
			v.files = appFiles{archive: v.archive}
		}
	} else if a.resources != "" && isDir(filepath.Join(a.resources, "app")) {
		v.files = appFiles{dir: filepath.Join(a.resources, "app")}
	}
	if v.files.archive != nil || v.files.dir != "" {
		v.pkg, v.pkgErr = readPackage(v.files)
	}
	if v.archive != nil {
		ar := &AsarReport{Path: v.archive.Path, Bytes: v.archive.Size, HeaderSize: v.archive.HeaderSize, HeaderSHA256: v.archive.HeaderHash(), Directories: v.archive.Dirs, List: []string{}}
		for _, e := range v.archive.Files {
			switch {
			case e.Link != "":
				ar.Links++
			default:
				ar.Files++
				ar.FileBytes += e.Size
				if e.Unpacked {
					ar.Unpacked++
				}
			}
			if len(ar.List) < v.opts.ListLimit {
				ar.List = append(ar.List, e.Path)
			} else {
				ar.ListTruncated = true
			}
		}
		if v.pkg != nil {
			ar.AppName, ar.AppVersion, ar.Main = v.pkg.Name, v.pkg.Version, mainScript(v.pkg)
		}
		if a.plist != "" {
			if h := plistAsarHash(a.plist); h != "" {
				ar.ExpectedHeader, ar.ExpectedHeaderF = h, "Info.plist ElectronAsarIntegrity"
			}
		}
		r.Asar = ar
		if run[CheckAsarIntegrity] {
			r.Integrity, v.intErr = v.archive.CheckIntegrity(v.ctx)
			if v.intErr != nil && v.ctx.Err() != nil {
				return errs.FromContext(v.ctx, errs.OperationTimeout, "validating the app")
			}
		}
	}
	if run[CheckWebPreferences] && v.pkg != nil {
		v.mainFile = mainScript(v.pkg)
		src, cut, err := v.files.read(v.mainFile, maxBundle)
		if err != nil {
			v.mainErr = err
		} else {
			r.WebPreferences = scanWebPreferences(v.mainFile, src, cut)
		}
	}
	if run[CheckVersions] {
		r.Versions = v.versions()
	}
	return nil
}

// plistAsarHash reads the header hash of Resources/app.asar from an XML
// Info.plist's ElectronAsarIntegrity dictionary.
func plistAsarHash(p string) string {
	b, err := os.ReadFile(p)
	if err != nil || len(b) > 4<<20 {
		return ""
	}
	m := plistHashRE().FindSubmatch(b)
	if m == nil {
		return ""
	}
	return strings.ToLower(string(m[1]))
}

var plistHashRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)<key>ElectronAsarIntegrity</key>\s*<dict>.*?<key>Resources/app\.asar</key>\s*<dict>.*?<key>hash</key>\s*<string>([0-9a-fA-F]{64})</string>`)
}) // compiled on first use, not at start

var versionFileRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v?(\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z.]+)?)\s*$`)
}) // compiled on first use, not at start

func (v *validation) versions() *Versions {
	out := &Versions{}
	if v.scan != nil {
		if v.scan.electron != "" {
			out.Electron, out.ElectronSource = v.scan.electron, "binary (Electron/ token)"
		}
		if v.scan.chrome != "" {
			out.Chromium, out.ChromiumSource = v.scan.chrome, "binary (Chrome/ token)"
		}
	}
	if out.Electron == "" && v.art.binary != "" {
		vf := filepath.Join(filepath.Dir(v.art.binary), "version")
		if b, err := os.ReadFile(vf); err == nil && len(b) < 64 {
			if m := versionFileRE().FindSubmatch(b); m != nil {
				out.Electron, out.ElectronSource = string(m[1]), "version file"
			}
		}
	}
	if v.pkg != nil {
		for _, deps := range []map[string]string{v.pkg.DevDependencies, v.pkg.Dependencies} {
			if d := deps["electron"]; d != "" {
				out.DeclaredElectron = d
				break
			}
		}
	}
	return out
}

func (v *validation) check(id string) Check {
	switch id {
	case CheckFuses:
		return v.checkFuses()
	case CheckAsar:
		return v.checkAsar()
	case CheckAsarIntegrity:
		return v.checkIntegrity()
	case CheckVersions:
		return v.checkVersions()
	case CheckWebPreferences:
		return v.checkWebPreferences()
	case CheckAppImage:
		return v.checkAppImage()
	}
	return Check{Status: Unknown, Detail: "no such check"}
}

func (v *validation) checkFuses() Check {
	switch {
	case v.art.kind == ArtifactAsar || v.art.kind == ArtifactAppImage:
		return Check{Status: Unknown, Detail: "an " + v.art.kind + " alone carries no Electron binary; validate the unpacked app folder (for an AppImage: --appimage-extract, then validate squashfs-root)"}
	case v.art.binary == "":
		return Check{Status: Unknown, Detail: "no Electron executable was found in the artifact"}
	case v.scanErr != nil:
		return Check{Status: Unknown, Detail: "reading the binary failed: " + v.scanErr.Error(), Evidence: v.art.binary}
	case v.r.Fuses == nil && v.fuseErr == nil:
		return Check{Status: Unknown, Detail: "no fuse sentinel in the binary: Electron before 12, or not an Electron binary", Evidence: v.art.binary}
	case v.fuseErr != nil:
		return Check{Status: Fail, Detail: "the fuse wire cannot be read: " + v.fuseErr.Error(), Evidence: v.art.binary}
	}
	w := v.r.Fuses
	var open []string
	for _, name := range []string{"RunAsNode", "EnableNodeOptionsEnvironmentVariable", "EnableNodeCliInspectArguments"} {
		if w.State(name) == "enabled" {
			open = append(open, name)
		}
	}
	var parts []string
	for _, f := range w.Fuses {
		parts = append(parts, f.Name+"="+f.State)
	}
	ev := strings.Join(parts, " ")
	if len(open) > 0 {
		return Check{Status: Fail, Evidence: ev,
			Detail:      "fuses that let anyone who can start the binary run code as the app are on: " + strings.Join(open, ", ") + ". Electron's security checklist turns them off in production builds (understudy's main-process tools need EnableNodeCliInspectArguments, so a test build may keep that one).",
			NextActions: []string{"flip them off when packaging: @electron/fuses flipFuses(binary, {version: FuseVersion.V1, [FuseV1Options.RunAsNode]: false, [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false, [FuseV1Options.EnableNodeCliInspectArguments]: false})"}}
	}
	return Check{Status: Pass, Detail: fmt.Sprintf("fuse wire v%d with %d fuses; RunAsNode, NODE_OPTIONS and --inspect are off", w.Version, len(w.Fuses)), Evidence: ev}
}

func (v *validation) checkAsar() Check {
	switch {
	case v.asarErr != nil:
		return Check{Status: Fail, Detail: v.asarErr.Error(), Evidence: v.art.asarPath,
			NextActions: []string{"repackage the app (the archive is truncated or corrupt)"}}
	case v.archive == nil && v.files.dir != "":
		return Check{Status: Unknown, Detail: "the app ships as a plain folder (resources/app), not app.asar: no archive to check", Evidence: v.files.dir}
	case v.archive == nil:
		return Check{Status: Unknown, Detail: "no app.asar found"}
	}
	a := v.r.Asar
	var problems []string
	if v.r.Integrity != nil && len(v.r.Integrity.Missing) > 0 {
		problems = append(problems, fmt.Sprintf("%d unpacked files are missing from %s (first: %s)", len(v.r.Integrity.Missing), filepath.Base(v.archive.UnpackedDir()), v.r.Integrity.Missing[0]))
	}
	if v.r.Integrity == nil {
		for _, e := range v.archive.Files {
			if e.Unpacked && !isFile(filepath.Join(v.archive.UnpackedDir(), filepath.FromSlash(e.Path))) {
				problems = append(problems, "unpacked file missing: "+e.Path)
				break
			}
		}
	}
	for _, e := range v.archive.Files {
		if !e.Unpacked && e.Link == "" && e.Offset+e.Size > v.archive.Size-v.archive.DataOffset {
			problems = append(problems, fmt.Sprintf("%s runs past the end of the archive (truncated archive)", e.Path))
			break
		}
	}
	if v.pkgErr != nil {
		problems = append(problems, "package.json: "+v.pkgErr.Error())
	} else if v.pkg != nil && v.archive.Find(mainScript(v.pkg)) == nil {
		problems = append(problems, "package.json main "+mainScript(v.pkg)+" is not in the archive")
	}
	ev := fmt.Sprintf("%d files (%d unpacked, %d links) in %d folders, header %d bytes, header SHA-256 %s", a.Files, a.Unpacked, a.Links, a.Directories, a.HeaderSize, a.HeaderSHA256)
	if len(problems) > 0 {
		return Check{Status: Fail, Detail: strings.Join(problems, "; "), Evidence: ev, NextActions: []string{"repackage the app so app.asar, app.asar.unpacked and package.json agree"}}
	}
	return Check{Status: Pass, Detail: "the header parses, every packed file lies inside the archive, every unpacked file is present, and package.json names a main script that exists", Evidence: ev}
}

func (v *validation) checkIntegrity() Check {
	if v.archive == nil {
		c := v.checkAsar()
		if c.Status == Pass {
			c.Status = Unknown
		}
		return Check{Status: c.Status, Detail: "no readable archive: " + c.Detail}
	}
	in := v.r.Integrity
	if in == nil {
		return Check{Status: Unknown, Detail: "integrity was not checked"}
	}
	if v.intErr != nil {
		return Check{Status: Unknown, Detail: "hashing stopped: " + v.intErr.Error()}
	}
	ev := fmt.Sprintf("%d files hashed (%d bytes), %d without an integrity record", in.Checked, in.Bytes, in.NoRecord)
	var problems []string
	if len(in.Mismatches) > 0 {
		problems = append(problems, fmt.Sprintf("%d files differ from their integrity record (first: %s: %s)", len(in.Mismatches), in.Mismatches[0].Path, in.Mismatches[0].Reason))
	}
	if a := v.r.Asar; a.ExpectedHeader != "" && a.ExpectedHeader != a.HeaderSHA256 {
		problems = append(problems, fmt.Sprintf("the header's SHA-256 %s differs from %s's %s: Electron refuses to load it when the integrity fuse is on", a.HeaderSHA256, a.ExpectedHeaderF, a.ExpectedHeader))
	}
	if len(problems) > 0 {
		return Check{Status: Fail, Detail: strings.Join(problems, "; "), Evidence: ev, NextActions: []string{"repackage: a file was changed after the archive was written"}}
	}
	if in.Checked == 0 {
		return Check{Status: Unknown, Detail: "no file carries an integrity record (archives written by @electron/asar before 3.1 have none)", Evidence: ev}
	}
	detail := "every file with an integrity record matches its SHA-256 and block hashes"
	switch v.r.Fuses.State("EnableEmbeddedAsarIntegrityValidation") {
	case "enabled":
		detail += "; Electron validates them at run time (EnableEmbeddedAsarIntegrityValidation is on)"
	case "disabled":
		detail += "; Electron does not validate them at run time (EnableEmbeddedAsarIntegrityValidation is off)"
	}
	return Check{Status: Pass, Detail: detail, Evidence: ev}
}

func (v *validation) checkVersions() Check {
	ver := v.r.Versions
	if ver.Electron == "" {
		d := "no Electron version found in the binary or a version file"
		if ver.DeclaredElectron != "" {
			d += "; package.json declares electron " + ver.DeclaredElectron + " (a range, not the shipped binary)"
		}
		return Check{Status: Unknown, Detail: d}
	}
	ev := "Electron " + ver.Electron + " (" + ver.ElectronSource + ")"
	if ver.Chromium != "" {
		ev += ", Chromium " + ver.Chromium + " (" + ver.ChromiumSource + ")"
	}
	return Check{Status: Pass, Detail: "the versions are read from the artifact; whether they are still supported is not judged here", Evidence: ev}
}

func (v *validation) checkWebPreferences() Check {
	switch {
	case v.pkg == nil && v.pkgErr != nil:
		return Check{Status: Unknown, Detail: "package.json cannot be read: " + v.pkgErr.Error()}
	case v.pkg == nil:
		return Check{Status: Unknown, Detail: "no app sources (app.asar or resources/app) found"}
	case v.mainErr != nil:
		return Check{Status: Unknown, Detail: "the main script " + v.mainFile + " cannot be read: " + v.mainErr.Error()}
	}
	wp := v.r.WebPreferences
	if len(wp.Risky) > 0 {
		var parts []string
		for _, l := range wp.Risky {
			parts = append(parts, fmt.Sprintf("%s:%d %s", wp.File, l.Line, l.Text))
		}
		return Check{Status: Fail, Detail: fmt.Sprintf("%d literal settings weaken the renderer (nodeIntegration on, contextIsolation/sandbox/webSecurity off, or insecure content allowed)", len(wp.Risky)),
			Evidence: strings.Join(parts, "; "), NextActions: []string{"keep Electron's defaults (nodeIntegration false, contextIsolation true, sandbox true, webSecurity true) and expose what the renderer needs through a preload with contextBridge"}}
	}
	d := fmt.Sprintf("%d literal webPreferences settings in %s, none weakening the renderer; only literal values are seen (settings computed at run time are not)", len(wp.Literals), wp.File)
	if wp.Truncated {
		d += fmt.Sprintf("; only the first %d bytes were read", wp.Bytes)
	}
	return Check{Status: Pass, Detail: d}
}

func (v *validation) checkAppImage() Check {
	if v.art.kind != ArtifactAppImage {
		return Check{Status: Unknown, Detail: "not an AppImage"}
	}
	f, err := elf.Open(v.art.binary)
	if err != nil {
		return Check{Status: Fail, Detail: "the AppImage runtime is not a readable ELF: " + err.Error(),
			NextActions: []string{"rebuild the AppImage with appimagetool"}}
	}
	defer f.Close()
	sig := f.Section(".sha256_sig")
	key := f.Section(".sig_key")
	detail := "AppImage type 2 runtime; the app inside the squashfs image is not read here (extract with --appimage-extract and validate squashfs-root for fuses and asar)"
	if sig == nil {
		return Check{Status: Unknown, Detail: detail + "; the runtime has no .sha256_sig section, so it cannot carry an embedded signature"}
	}
	data, err := sig.Data()
	if err != nil {
		return Check{Status: Unknown, Detail: detail + "; .sha256_sig cannot be read: " + err.Error()}
	}
	if len(bytes.Trim(data, "\x00")) == 0 {
		return Check{Status: Fail, Detail: detail + "; the embedded signature (.sha256_sig) is empty: the AppImage is unsigned",
			NextActions: []string{"sign it: appimagetool --sign"}}
	}
	ev := fmt.Sprintf(".sha256_sig %d bytes", len(data))
	if key != nil {
		ev += fmt.Sprintf(", .sig_key %d bytes", key.Size)
	}
	return Check{Status: Unknown, Detail: detail + "; an embedded signature is present but not verified (OpenPGP verification against a trusted key is not done here)", Evidence: ev}
}

// debugging judges the switches understudy launches with against the fuses.
func debugging(w *FuseWire, fuseErr error, art *artifact) Debugging {
	unknown := func(why string) Verdict { return Verdict{Status: "unknown", Reason: why} }
	var d Debugging
	d.RemoteDebugging = Verdict{Status: "accepted", Reason: "no Electron fuse governs --remote-debugging-port (a Chromium switch); the app's own code can still refuse or ignore it"}
	switch {
	case art.binary == "" || art.kind == ArtifactAsar || art.kind == ArtifactAppImage:
		why := "no Electron binary was read"
		d.Inspect, d.SIGUSR1, d.ExternalMain = unknown(why), unknown(why), unknown(why)
		d.RemoteDebugging = unknown(why)
		return d
	case fuseErr != nil:
		why := "the fuse wire cannot be read: " + fuseErr.Error()
		d.Inspect, d.SIGUSR1, d.ExternalMain = unknown(why), unknown(why), unknown(why)
		return d
	case w == nil:
		why := "no fuse wire (Electron before 12 or not Electron): no fuse forbids it"
		d.Inspect = Verdict{Status: "accepted", Reason: why}
		d.SIGUSR1 = Verdict{Status: "accepted", Reason: why}
		d.ExternalMain = Verdict{Status: "accepted", Reason: why}
		return d
	}
	switch w.State("EnableNodeCliInspectArguments") {
	case "disabled":
		d.Inspect = Verdict{Status: "blocked", Reason: "fuse EnableNodeCliInspectArguments is disabled: Electron ignores --inspect, so a dev launch gets no main-process inspector"}
		d.SIGUSR1 = Verdict{Status: "blocked", Reason: "fuse EnableNodeCliInspectArguments is disabled: SIGUSR1 does not open the main-process inspector, so inject cannot work"}
	case "enabled":
		d.Inspect = Verdict{Status: "accepted", Reason: "fuse EnableNodeCliInspectArguments is enabled"}
		d.SIGUSR1 = Verdict{Status: "accepted", Reason: "fuse EnableNodeCliInspectArguments is enabled"}
	default:
		why := "fuse EnableNodeCliInspectArguments is " + orAbsent(w.State("EnableNodeCliInspectArguments"))
		d.Inspect, d.SIGUSR1 = unknown(why), unknown(why)
	}
	switch w.State("OnlyLoadAppFromAsar") {
	case "enabled":
		d.ExternalMain = Verdict{Status: "blocked", Reason: "fuse OnlyLoadAppFromAsar is enabled: the binary loads only app.asar, never a main script given on the command line"}
	case "disabled":
		d.ExternalMain = Verdict{Status: "accepted", Reason: "fuse OnlyLoadAppFromAsar is disabled"}
	default:
		d.ExternalMain = unknown("fuse OnlyLoadAppFromAsar is " + orAbsent(w.State("OnlyLoadAppFromAsar")))
	}
	return d
}

func orAbsent(s string) string {
	if s == "" {
		return "absent from the wire"
	}
	return s
}
