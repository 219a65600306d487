package files

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/errs"
)

// maxWritten bounds the set of files this server remembers writing. When it
// is full the oldest is forgotten: replacing that file then needs
// overwrite:true, which errs on the safe side.
const maxWritten = 4096

// Config is the operator's choice of roots.
type Config struct {
	// WorkDir is the server's working directory ("" for none).
	WorkDir string
	// AppRoot is --app-root ("" for none).
	AppRoot string
	// Artifacts is the folder for outputs without a folder of their own and
	// for relative output paths. It is created (0700) when first needed.
	Artifacts string
	// Extra are the --file-root folders.
	Extra []string
	// AllowAny lifts the roots (--allow-any-file). Pseudo file systems and
	// the overwrite rule still apply.
	AllowAny bool
}

// Root is one allowed folder and where it comes from.
type Root struct {
	Path   string `json:"path"`
	Source string `json:"source"` // client, workdir, app-root, artifacts, file-root
}

// ClientRoots gives the MCP client's roots as local folder paths.
type ClientRoots interface {
	Roots(ctx context.Context) ([]string, error)
}

type clientKey struct{}

// WithClient returns a context whose checks also allow the client's roots.
func WithClient(ctx context.Context, c ClientRoots) context.Context {
	if c == nil {
		return ctx
	}
	return context.WithValue(ctx, clientKey{}, c)
}

// Roots decides which paths may be read and written. It is safe for
// concurrent use.
type Roots struct {
	cfg Config

	mu      sync.Mutex
	written map[string]struct{} // real paths this server wrote
	order   []string            // written, oldest first
}

// New returns the checker for cfg. Paths in cfg are made absolute.
func New(cfg Config) *Roots {
	abs := func(p string) string {
		if p == "" {
			return ""
		}
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return filepath.Clean(p)
	}
	cfg.WorkDir, cfg.AppRoot, cfg.Artifacts = abs(cfg.WorkDir), abs(cfg.AppRoot), abs(cfg.Artifacts)
	extra := make([]string, 0, len(cfg.Extra))
	for _, p := range cfg.Extra {
		if p != "" {
			extra = append(extra, abs(p))
		}
	}
	cfg.Extra = extra
	return &Roots{cfg: cfg, written: map[string]struct{}{}}
}

// DefaultArtifacts is the per-user artifacts folder:
// <user cache dir>/understudy/artifacts, or one in the temporary folder
// when the system names no cache folder.
func DefaultArtifacts() string {
	if d, err := os.UserCacheDir(); err == nil && d != "" {
		return filepath.Join(d, "understudy", "artifacts")
	}
	return filepath.Join(os.TempDir(), "understudy-"+strings.ReplaceAll(os.Getenv("USER"), string(filepath.Separator), "_"), "artifacts")
}

// AllowAny reports whether --allow-any-file lifted the roots.
func (r *Roots) AllowAny() bool { return r.cfg.AllowAny }

// ArtifactsDir creates the artifacts folder (0700) if needed and returns it.
func (r *Roots) ArtifactsDir() (string, error) {
	if r.cfg.Artifacts == "" {
		return "", errs.New(errs.Internal, "no artifacts folder is configured")
	}
	if err := os.MkdirAll(r.cfg.Artifacts, 0o700); err != nil {
		return "", errs.Wrap(errs.Internal, err, "creating the artifacts folder "+r.cfg.Artifacts)
	}
	return r.cfg.Artifacts, nil
}

// List returns the roots in force for ctx (the client's roots first). A
// client that does not answer adds none.
func (r *Roots) List(ctx context.Context) []Root {
	var out []Root
	if c, ok := ctx.Value(clientKey{}).(ClientRoots); ok {
		if paths, err := c.Roots(ctx); err == nil {
			for _, p := range paths {
				if filepath.IsAbs(p) {
					out = append(out, Root{filepath.Clean(p), "client"})
				}
			}
		}
	}
	for _, x := range []Root{{r.cfg.WorkDir, "workdir"}, {r.cfg.AppRoot, "app-root"}, {r.cfg.Artifacts, "artifacts"}} {
		if x.Path != "" {
			out = append(out, x)
		}
	}
	for _, p := range r.cfg.Extra {
		out = append(out, Root{p, "file-root"})
	}
	return out
}

// CheckRead allows reading the existing regular file at path (absolute)
// and returns its real location. field names the argument in errors.
func (r *Roots) CheckRead(ctx context.Context, field, path string) (string, error) {
	if err := checkSyntax(field, path); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		return "", errs.New(errs.AbsolutePathRequired, "%s: %q is not an absolute path", field, path).With("field", field)
	}
	real, err := r.allowed(ctx, field, path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errs.New(errs.FileNotFound, "%s: %s does not exist", field, path).With("field", field)
	case err != nil:
		return "", errs.BadArg(field, "%v", err)
	case st.IsDir():
		return "", errs.BadArg(field, "%s is a folder, not a file", path)
	case !st.Mode().IsRegular():
		return "", errs.BadArg(field, "%s is not a regular file", path)
	}
	return real, nil
}

// CheckReadPath allows reading the file or folder at path (absolute) and
// everything under it, and returns its real path. A missing path is
// FILE_NOT_FOUND. (production_validate reads app folders this way.)
func (r *Roots) CheckReadPath(ctx context.Context, field, path string) (string, error) {
	if err := checkSyntax(field, path); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		return "", errs.New(errs.AbsolutePathRequired, "%s: %q is not an absolute path", field, path).With("field", field)
	}
	real, err := r.allowed(ctx, field, filepath.Clean(path))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(real); errors.Is(err, fs.ErrNotExist) {
		return "", errs.New(errs.FileNotFound, "%s: %s does not exist", field, path).With("field", field)
	}
	return real, nil
}

// CheckWrite allows writing the file at path and returns the path to write
// (absolute). A relative path lands in the artifacts folder. An existing
// file is refused (FILE_EXISTS) unless this server wrote it or overwrite is
// set. The folder must exist. Call Wrote after writing.
func (r *Roots) CheckWrite(ctx context.Context, field, path string, overwrite bool) (string, error) {
	if err := checkSyntax(field, path); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		dir, err := r.ArtifactsDir()
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, path)
	}
	path = filepath.Clean(path)
	real, err := r.allowed(ctx, field, path)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(filepath.Dir(real)); err != nil || !st.IsDir() {
		return "", errs.New(errs.FileNotFound, "%s: the folder %q does not exist", field, filepath.Dir(path)).With("field", field)
	}
	st, err := os.Lstat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil
	case err != nil:
		return "", errs.BadArg(field, "%v", err)
	case st.IsDir():
		return "", errs.BadArg(field, "%s is a folder; name a file in it", path)
	case !st.Mode().IsRegular():
		return "", errs.BadArg(field, "%s exists and is not a regular file", path)
	}
	if !overwrite && !r.wrote(real) {
		return "", errs.New(errs.FileExists, "%s: %s exists and this server did not write it; pass overwrite:true to replace it", field, path).With("field", field).With("path", path)
	}
	return path, nil
}

// OutFile is where an output goes when a caller names a file (path,
// checked by CheckWrite, field path) or a folder (dir, checked by CheckDir,
// field dir; neither: the artifacts folder) to put a new file named name
// in; generated says it is the new file.
func (r *Roots) OutFile(ctx context.Context, path, dir string, overwrite bool, name string) (file string, generated bool, err error) {
	if path != "" {
		file, err := r.CheckWrite(ctx, "path", path, overwrite)
		return file, false, err
	}
	if dir, err = r.CheckDir(ctx, "dir", dir); err != nil {
		return "", false, err
	}
	return filepath.Join(dir, name), true, nil
}

// CheckDir allows creating new files in the folder dir (absolute, or
// relative to the artifacts folder; "" is the artifacts folder) and
// returns it.
func (r *Roots) CheckDir(ctx context.Context, field, dir string) (string, error) {
	if dir == "" {
		return r.ArtifactsDir()
	}
	if err := checkSyntax(field, dir); err != nil {
		return "", err
	}
	if !filepath.IsAbs(dir) {
		a, err := r.ArtifactsDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(a, dir)
	}
	dir = filepath.Clean(dir)
	real, err := r.allowed(ctx, field, dir)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return "", errs.New(errs.FileNotFound, "%s: the folder %q does not exist", field, dir).With("field", field)
	}
	return dir, nil
}

// CheckURL refuses a file: URL (also inside view-source:) whose path is
// outside the roots. Other URLs pass. Folders are allowed (a listing).
func (r *Roots) CheckURL(ctx context.Context, field, raw string) error {
	// As browsers do (URL standard): drop every tab and newline, trim C0
	// controls and spaces, read backslashes as slashes.
	s := strings.Map(func(c rune) rune {
		switch c {
		case '\t', '\n', '\r':
			return -1
		case '\\':
			return '/'
		}
		return c
	}, raw)
	s = strings.TrimLeftFunc(s, isC0OrSpace)
	for {
		rest, ok := cutFold(s, "view-source:")
		if !ok {
			break
		}
		s = strings.TrimLeftFunc(rest, isC0OrSpace)
	}
	rest, ok := cutFold(s, "file:")
	if !ok {
		return nil
	}
	u, err := url.Parse("file:" + rest)
	if err != nil {
		return errs.BadArg(field, "not a valid file: URL: %v", err)
	}
	if h := strings.ToLower(u.Hostname()); h != "" && h != "localhost" {
		return errs.BadArg(field, "a file: URL with a host (%q) names a network share; use file:///path", u.Host)
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if err := checkSyntax(field, p); err != nil {
		return err
	}
	_, err = r.allowed(ctx, field, filepath.FromSlash(p))
	return err
}

// Wrote records that this server wrote path, so writing it again needs no
// overwrite.
func (r *Roots) Wrote(path string) {
	real, err := realPath(path)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.written[real]; ok {
		return
	}
	if len(r.order) >= maxWritten {
		delete(r.written, r.order[0])
		r.order = r.order[1:]
	}
	r.written[real] = struct{}{}
	r.order = append(r.order, real)
}

func (r *Roots) wrote(real string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.written[real]
	return ok
}

// allowed resolves path to where it really is and checks it against the
// roots (unless AllowAny) and the pseudo file systems.
func (r *Roots) allowed(ctx context.Context, field, path string) (string, error) {
	real, err := realPath(path)
	if err != nil {
		return "", errs.BadArg(field, "%s: %v", path, err)
	}
	for _, pseudo := range []string{"/proc", "/sys", "/dev"} {
		if within(real, pseudo) {
			return "", errs.BadArg(field, "%s is in %s, a kernel file system, not a place for files to read or write", path, pseudo)
		}
	}
	if r.cfg.AllowAny {
		return real, nil
	}
	roots := r.List(ctx)
	for _, root := range roots {
		rr, err := realPath(root.Path)
		if err != nil {
			continue
		}
		if within(real, rr) {
			return real, nil
		}
	}
	shown := make([]string, len(roots))
	for i, x := range roots {
		shown[i] = x.Source + " " + x.Path
	}
	msg := "%s: %s is outside the allowed roots (%s)"
	if real != filepath.Clean(path) {
		msg = "%s: %s is outside the allowed roots (%s); it leads to " + real
	}
	return "", errs.New(errs.PathNotAllowed, msg, field, path, strings.Join(shown, ", ")).
		With("field", field).With("path", path).With("roots", roots)
}

// checkSyntax refuses what is no path at all.
func checkSyntax(field, path string) error {
	switch {
	case path == "":
		return errs.BadArg(field, "is empty")
	case strings.ContainsRune(path, 0):
		return errs.BadArg(field, "contains a NUL byte")
	case len(path) > 4096:
		return errs.BadArg(field, "is %d bytes long; the limit is 4096", len(path))
	}
	return nil
}

// realPath resolves the symbolic links of the longest existing part of
// path (absolute) and appends the rest. A dangling link is an error: where
// it leads cannot be told.
func realPath(path string) (string, error) {
	path = filepath.Clean(path)
	cur, rest := path, ""
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if st, lerr := os.Lstat(cur); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return "", errors.New(cur + " is a symbolic link to a missing file")
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return path, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is root or inside it (both clean and absolute).
func within(p, root string) bool {
	if p == root {
		return true
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func isC0OrSpace(c rune) bool { return c <= ' ' }

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return "", false
}
