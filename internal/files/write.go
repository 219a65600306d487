package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The one writer (docs/adr/039). Every file a tool writes goes through
// Write, WriteAll or a Dir made by MakeDir: each judges the path against
// the roots and the overwrite rule (CheckWrite), writes through a temporary
// file (0600) and a rename or a hard link, and records the file as this
// server's. No other package creates, renames or opens files for writing
// (TestOneWriter).

// Out is one file a tool writes.
type Out struct {
	// Field names the argument that gave the path, for errors.
	Field string
	// Path is absolute, or relative to the artifacts folder.
	Path string
	// Overwrite lets an existing file this server did not write be
	// replaced: the caller passed overwrite:true, or the tool proved the
	// file is of the kind it declares as its output (a baseline whose
	// sidecar describes its PNG). Never set it for a file merely because a
	// name matches.
	Overwrite bool
	// Unique marks a name the server made up: when it is taken, a -2, -3 ...
	// suffix is added instead of replacing anything.
	Unique bool
	// Code wraps a failure to write (default INTERNAL).
	Code errs.Code
}

// Write writes data to o.Path after the one check and returns the path
// written (a Unique name may have gained a suffix).
func (r *Roots) Write(ctx context.Context, o Out, data []byte) (string, error) {
	ps, err := r.WriteAll(ctx, []Out{o}, [][]byte{data})
	if err != nil {
		return "", err
	}
	return ps[0], nil
}

// WriteAll checks every file first and writes none unless all pass, then
// writes them in order. It returns the paths written.
func (r *Roots) WriteAll(ctx context.Context, outs []Out, data [][]byte) ([]string, error) {
	if len(outs) != len(data) {
		return nil, errs.New(errs.Internal, "files.WriteAll: %d files, %d contents", len(outs), len(data))
	}
	paths := make([]string, len(outs))
	for i, o := range outs {
		field := o.Field
		if field == "" {
			field = "path"
		}
		p, err := r.CheckWrite(ctx, field, o.Path, o.Overwrite && !o.Unique)
		if err != nil && !(o.Unique && errs.CodeOf(err) == errs.FileExists) {
			return nil, err
		}
		if err != nil { // a made-up name that is taken: the write picks a free one
			p = filepath.Clean(o.Path)
			if !filepath.IsAbs(p) {
				dir, _ := r.ArtifactsDir()
				p = filepath.Join(dir, p)
			}
		}
		paths[i] = p
	}
	for i, o := range outs {
		p, err := r.place(paths[i], data[i], o)
		if err != nil {
			return nil, err
		}
		paths[i] = p
		r.Wrote(p)
	}
	return paths, nil
}

// place writes data at path through a temporary file in its folder. A path
// that does not exist is created without replacing a file that appears
// meanwhile (a hard link fails when the name is taken); a Unique name that
// is taken gets a suffix; an existing file CheckWrite allowed is replaced.
func (r *Roots) place(path string, data []byte, o Out) (string, error) {
	code := o.Code
	if code == "" {
		code = errs.Internal
	}
	tmp, err := writeTemp(filepath.Dir(path), data)
	if err != nil {
		return "", errs.Wrap(code, err, "writing "+path)
	}
	defer os.Remove(tmp)
	base, ext := strings.TrimSuffix(path, filepath.Ext(path)), filepath.Ext(path)
	for n := 2; n < 10000; n++ {
		if _, err := os.Lstat(path); err == nil && !o.Unique {
			break // an existing file CheckWrite allowed: replace it
		}
		err := os.Link(tmp, path)
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			break // no hard links on this file system: rename
		}
		if !o.Unique {
			// Created by someone else since the check: judge it again.
			if real, rerr := realPath(path); rerr != nil || (!o.Overwrite && !r.wrote(real)) {
				return "", errs.New(errs.FileExists, "%s was created by someone else while it was being written", path).With("field", o.Field).With("path", path)
			}
			break
		}
		path = fmt.Sprintf("%s-%d%s", base, n, ext)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", errs.Wrap(code, err, "writing "+path)
	}
	return path, nil
}

// writeTemp writes data to a new temporary file (0600) in dir.
func writeTemp(dir string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, ".understudy-tmp-*")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// writeAtomic replaces path with data through a temporary file and a
// rename, so a reader (or a server killed midway) never sees half a file.
func writeAtomic(path string, data []byte, code errs.Code) error {
	tmp, err := writeTemp(filepath.Dir(path), data)
	if err != nil {
		return errs.Wrap(code, err, "writing "+path)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return errs.Wrap(code, err, "writing "+path)
	}
	return nil
}

// Dir is a folder this server created for a set of outputs (a trace): it
// writes freely inside it, and nowhere else.
type Dir struct {
	path string
	code errs.Code
}

// MakeDir creates the new folder path (0700; absolute, or relative to the
// artifacts folder) after judging it against the roots. Its parent must
// exist; a path that exists is FILE_EXISTS. code wraps write failures.
func (r *Roots) MakeDir(ctx context.Context, field, path string, code errs.Code) (*Dir, error) {
	if err := checkSyntax(field, path); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(path) {
		a, err := r.ArtifactsDir()
		if err != nil {
			return nil, err
		}
		path = filepath.Join(a, path)
	}
	path = filepath.Clean(path)
	if _, err := r.CheckDir(ctx, field, filepath.Dir(path)); err != nil {
		return nil, err
	}
	if _, err := r.allowed(ctx, field, path); err != nil {
		return nil, err
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, errs.New(errs.FileExists, "%s exists; pick another path", path).With("field", field).With("path", path)
		}
		return nil, errs.Wrap(code, err, "creating the folder "+path)
	}
	r.Wrote(path)
	return &Dir{path: path, code: code}, nil
}

// Path is the folder.
func (d *Dir) Path() string { return d.path }

// join is name inside the folder; a name that would leave it is refused.
func (d *Dir) join(name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if name == "" || filepath.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", errs.New(errs.Internal, "%q is not a name inside %s", name, d.path)
	}
	return filepath.Join(d.path, clean), nil
}

// Mkdir creates the folder name (0700) inside the folder.
func (d *Dir) Mkdir(name string) error {
	p, err := d.join(name)
	if err != nil {
		return err
	}
	if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return errs.Wrap(d.code, err, "creating the folder "+p)
	}
	return nil
}

// Write writes (or replaces) the file name inside the folder through a
// temporary file and a rename.
func (d *Dir) Write(name string, data []byte) error {
	p, err := d.join(name)
	if err != nil {
		return err
	}
	if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
		return errs.New(d.code, "%s exists and is not a regular file", p)
	}
	return writeAtomic(p, data, d.code)
}

// SubDir makes (0700, with its parents) the folder name inside the
// artifacts folder, for outputs that have a default folder there
// (baselines, downloads), and returns it.
func (r *Roots) SubDir(name string) (string, error) {
	a, err := r.ArtifactsDir()
	if err != nil {
		return "", err
	}
	d := &Dir{path: a, code: errs.Internal}
	p, err := d.join(name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(p, 0o700); err != nil {
		return "", errs.Wrap(errs.Internal, err, "creating "+p)
	}
	return p, nil
}

// PrivateFile writes data to a new file name in a new private temporary
// folder (0700), outside the roots: for what the server hands a process it
// starts (a launch shim), never an agent's output. remove deletes both.
func PrivateFile(name string, data []byte) (path string, remove func(), err error) {
	dir, err := os.MkdirTemp("", "understudy-private-")
	if err != nil {
		return "", nil, errs.Wrap(errs.Internal, err, "creating a private folder")
	}
	remove = func() { _ = os.RemoveAll(dir) }
	d := &Dir{path: dir, code: errs.Internal}
	if err := d.Write(name, data); err != nil {
		remove()
		return "", nil, err
	}
	p, _ := d.join(name)
	return p, remove, nil
}
