package files

import (
	"context"
	"mime"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// StatFiles checks that every path names a regular file no larger than
// limit and returns their sizes; an error names the path by its index in
// the argument field ("paths[1]").
func StatFiles(field string, paths []string, limit int64) ([]int64, error) {
	sizes := make([]int64, len(paths))
	for i, p := range paths {
		f := field + "[" + strconv.Itoa(i) + "]"
		st, err := os.Stat(p)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, errs.New(errs.FileNotFound, "%s: %s does not exist", f, p).With("field", f)
			}
			return nil, errs.BadArg(f, "%v", err)
		}
		if !st.Mode().IsRegular() {
			return nil, errs.BadArg(f, "%s is not a regular file", p)
		}
		if st.Size() > limit {
			return nil, errs.BadArg(f, "%s has %d bytes; the limit is %d", p, st.Size(), limit)
		}
		sizes[i] = st.Size()
	}
	return sizes, nil
}

// Loaded is a file read whole, as a page receives it.
type Loaded struct {
	Name     string // its base name
	Type     string // its MIME type by extension ("" when unknown)
	Data     []byte
	Modified time.Time
}

// LoadFiles reads files of at most perFile bytes each and total bytes
// together (StatFiles first); errors name the argument field.
func LoadFiles(field string, paths []string, perFile, total int64) ([]Loaded, error) {
	sizes, err := StatFiles(field, paths, perFile)
	if err != nil {
		return nil, err
	}
	var sum int64
	for _, n := range sizes {
		sum += n
	}
	if sum > total {
		return nil, errs.BadArg(field, "the files have %d bytes together; the limit of a drop is %d", sum, total)
	}
	out := make([]Loaded, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, errs.BadArg(field+"["+strconv.Itoa(i)+"]", "%v", err)
		}
		var mod time.Time
		if st, err := os.Stat(p); err == nil {
			mod = st.ModTime()
		}
		out[i] = Loaded{Name: filepath.Base(p), Type: mime.TypeByExtension(filepath.Ext(p)), Data: b, Modified: mod}
	}
	return out, nil
}

// Limits of the files a caller hands a page.
const (
	// MaxInputFile bounds one file given to a file input (the browser
	// reads it from disk).
	MaxInputFile = 1 << 30
	// MaxDropFile and MaxDropTotal bound the files of a drop, which travel
	// to the renderer inside one protocol message.
	MaxDropFile  = 8 << 20
	MaxDropTotal = 16 << 20
)

// CheckReads is CheckRead of every path (an error names it field[i]): where
// they really are, symbolic links resolved.
func (r *Roots) CheckReads(ctx context.Context, field string, paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		real, err := r.CheckRead(ctx, field+"["+strconv.Itoa(i)+"]", p)
		if err != nil {
			return nil, err
		}
		out[i] = real
	}
	return out, nil
}

// ForInput checks files given to a file input (field paths): under the
// roots (CheckReads), regular and at most MaxInputFile each; it answers
// where they really are.
func (r *Roots) ForInput(ctx context.Context, paths []string) ([]string, error) {
	real, err := r.CheckReads(ctx, "paths", paths)
	if err != nil {
		return nil, err
	}
	if _, err := StatFiles("paths", real, MaxInputFile); err != nil {
		return nil, err
	}
	return real, nil
}

// ForDrop checks files dropped on a page (field paths) as ForInput does
// and reads them, at most MaxDropFile each and MaxDropTotal together.
func (r *Roots) ForDrop(ctx context.Context, paths []string) ([]Loaded, error) {
	real, err := r.CheckReads(ctx, "paths", paths)
	if err != nil {
		return nil, err
	}
	return LoadFiles("paths", real, MaxDropFile, MaxDropTotal)
}
