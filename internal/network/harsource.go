package network

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ReadBounded reads the file at path, at most limit bytes; field names the
// argument in errors (FILE_NOT_FOUND when it cannot be opened, a bad
// argument when it is larger).
func ReadBounded(path string, limit int64, field string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errs.New(errs.FileNotFound, "%s: %v", field, err).With("field", field)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, errs.BadArg(field, "reading %s: %v", path, err)
	}
	if int64(len(data)) > limit {
		return nil, errs.BadArg(field, "%s is larger than %d bytes", path, limit)
	}
	return data, nil
}

// HARSource returns the HAR document of a file read for replay (data, read
// from path) and how to read the side files its entries name (Playwright's
// recordHar with content 'attach'): a zip (recordHar to a .zip path) holds
// the HAR and its side files; a .har file has them next to it, each checked
// by check (the caller's file roots) before it is read. Side files together
// are bounded by limit, like the HAR itself; field names the argument in
// errors.
func HARSource(path string, data []byte, limit int64, field string, check func(path string) (string, error)) ([]byte, HARFiles, error) {
	budget := limit
	take := func(n int64) error {
		if budget -= n; budget < 0 {
			return errs.BadArg(field, "the HAR's side files are larger than %d MiB together", limit>>20)
		}
		return nil
	}
	if !bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		dir := filepath.Dir(path)
		return data, func(name string) ([]byte, error) {
			p, err := check(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil {
				return nil, err
			}
			b, err := ReadBounded(p, limit, field)
			if err == nil {
				err = take(int64(len(b)))
			}
			return b, err
		}, nil
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, errs.New(errs.HARInvalid, "%s looks like a zip but is not one: %v", path, err).With("path", "$")
	}
	files := map[string]*zip.File{}
	var har *zip.File
	for _, f := range zr.File {
		files[f.Name] = f
		if har == nil && strings.HasSuffix(strings.ToLower(f.Name), ".har") {
			har = f
		}
	}
	read := func(f *zip.File) ([]byte, error) {
		if int64(f.UncompressedSize64) > budget || f.UncompressedSize64 > uint64(limit) {
			return nil, take(int64(f.UncompressedSize64))
		}
		rc, err := f.Open()
		if err != nil {
			return nil, errs.Wrap(errs.HARInvalid, err, "reading "+f.Name+" in the zip").With("path", "$")
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, budget+1))
		if err != nil {
			return nil, errs.Wrap(errs.HARInvalid, err, "reading "+f.Name+" in the zip").With("path", "$")
		}
		return b, take(int64(len(b)))
	}
	if har == nil {
		return nil, nil, errs.New(errs.HARInvalid, "the zip %s holds no .har file", path).With("path", "$")
	}
	doc, err := read(har)
	if err != nil {
		return nil, nil, err
	}
	return doc, func(name string) ([]byte, error) {
		f := files[name]
		if f == nil {
			return nil, errs.New(errs.FileNotFound, "the zip has no %s", name).With("field", field)
		}
		return read(f)
	}, nil
}

// NoTargets turns a sync where every target failed into an error.
func NoTargets(err error, ok int, fails []Failure) error {
	if err == nil && ok == 0 && len(fails) > 0 {
		return errs.New(errs.CDPTimeout, "no target took it: %s: %s", fails[0].TargetID, fails[0].Error)
	}
	return err
}

// StartCaptureChecked is [Network.StartCapture] that fails when no target
// took it: capture already on is returned as it is; any other failure
// stops the capture again (it is on where it could be enabled) and says
// what failed.
func (n *Network) StartCaptureChecked(ctx context.Context, opts CaptureOptions) (int, []Failure, error) {
	k, fails, err := n.StartCapture(ctx, opts)
	if err != nil && errs.CodeOf(err) == errs.AlreadyCapturing {
		return 0, nil, err
	}
	if err = NoTargets(err, k, fails); err != nil {
		_, _ = n.StopCapture(context.WithoutCancel(ctx))
		return 0, nil, errs.Wrap(errs.CodeOf(err), err, "enabling network capture")
	}
	return k, fails, nil
}

// AddStubChecked is [Network.AddStub] that fails when no target took the
// stub, removing it again.
func (n *Network) AddStubChecked(ctx context.Context, s *Stub) (string, int, []Failure, error) {
	id, k, fails, err := n.AddStub(ctx, s)
	if err = NoTargets(err, k, fails); err != nil {
		_, _ = n.RemoveStubs(context.WithoutCancel(ctx), id, "")
		return "", 0, nil, errs.Wrap(errs.CodeOf(err), err, "enabling interception")
	}
	return id, k, fails, nil
}

// SetConditionsChecked is [Network.SetConditions] that fails when no
// target took the conditions.
func (n *Network) SetConditionsChecked(ctx context.Context, windowID string, c Conditions) (int, []Failure, error) {
	k, fails, err := n.SetConditions(ctx, windowID, c)
	if err = NoTargets(err, k, fails); err != nil {
		return 0, nil, errs.Wrap(errs.CodeOf(err), err, fmt.Sprintf("setting network conditions on %d targets", k))
	}
	return k, fails, nil
}
