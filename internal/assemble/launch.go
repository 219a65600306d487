package assemble

import (
	"context"
	"os"
	"path/filepath"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/production"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
	"github.com/understudy-dev/understudy/internal/target"
)

// LaunchSpec is what to launch.
type LaunchSpec struct {
	// Options are the browser's; its ExecutablePath is the app or browser
	// to run (a dev launch replaces it with its Electron binary).
	Options browser.LaunchOptions
	// Main is a dev launch's main script, run by ElectronPath (default
	// $ELECTRON_PATH, else node_modules/.bin/electron under the cwd).
	Main, ElectronPath string
	// InstrumentNative installs the fixed notification and tray hooks
	// before a dev launch's main runs (a shim main the session removes
	// when it closes).
	InstrumentNative bool
	// Launchable, when set, holds the launch until it is closed.
	Launchable <-chan struct{}
	// Steps says how many progress stages follow.
	Steps func(n int)
}

// launchShim marks the session's launch-time instrumentation shim, which
// the session removes when it closes.
type launchShim struct{}

// launchShimKey names the session's launch shim.
var launchShimKey = svc.New[*launchShim]("launch shim")

// Launch starts the app or browser and opens a session on it (Open): a
// dev launch needs its Electron binary, whose fuses must allow --inspect
// and a main script outside app.asar. On failure what was started is
// killed and nothing is left.
func Launch(ctx context.Context, env Env, sp LaunchSpec) (*session.Session, error) {
	opts := sp.Options
	mode := session.Launched
	var shimDone func() // removes the instrumentation shim unless the session took it
	if sp.Main != "" {
		mode = session.DevLaunch
		opts.MainScript = sp.Main
		opts.ExecutablePath = ElectronPath(sp.ElectronPath, opts.Cwd)
		if opts.ExecutablePath == "" {
			return nil, errs.BadArg("electronPath", "no Electron binary: pass electronPath, set $ELECTRON_PATH, or install electron under cwd (node_modules/.bin/electron)")
		}
		// A dev launch needs --inspect and a main script outside app.asar:
		// say in advance when the binary's fuses refuse either.
		if err := production.LaunchBlock(ctx, opts.ExecutablePath, production.Needs{Inspect: true, ExternalMain: true}); err != nil {
			return nil, err
		}
		if sp.InstrumentNative {
			shim, cleanup, err := writeShim(sp.Main, opts.Cwd)
			if err != nil {
				return nil, err
			}
			opts.RunMain = shim
			shimDone = cleanup
			defer func() {
				if shimDone != nil {
					shimDone()
				}
			}()
		}
	}
	// spawned, DevTools endpoint, (inspector endpoint,) connected, waiting
	// for a renderer, renderer ready.
	if sp.Steps != nil {
		sp.Steps(5)
		if mode == session.DevLaunch {
			sp.Steps(6)
		}
	}
	opts.Progress = func(stage string) { env.step("launch: " + stage) }
	if sp.Launchable != nil {
		select {
		case <-sp.Launchable:
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the server's signal handler")
		}
	}
	proc, err := browser.Launch(ctx, opts)
	if err != nil {
		return nil, err
	}
	sess, err := Open(ctx, env, Spec{Mode: mode, Proc: proc, Endpoint: proc.Endpoint,
		Pool: target.Options{HTTPURL: proc.Endpoint.HTTPURL, BrowserWSURL: proc.Endpoint.BrowserWSURL}})
	if err != nil {
		_ = proc.Kill()
		return nil, err
	}
	if shimDone != nil {
		// The session removes the shim when it closes.
		done := shimDone
		shimDone = nil
		if _, err := session.Attach(sess, launchShimKey, func(context.Context) (*launchShim, func() error, error) {
			return &launchShim{}, func() error { done(); return nil }, nil
		}); err != nil {
			done()
		}
	}
	return sess, nil
}

// ElectronPath picks the Electron binary of a dev launch: given, else
// $ELECTRON_PATH, else node_modules/.bin/electron under cwd; "" when none.
func ElectronPath(given, cwd string) string {
	if given != "" {
		return given
	}
	if env := os.Getenv("ELECTRON_PATH"); env != "" {
		return env
	}
	if cwd != "" {
		p := filepath.Join(cwd, "node_modules", ".bin", "electron")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// writeShim writes the launch-time instrumentation shim for main (a dev
// launch's main script, absolute or relative to cwd) into a new temporary
// folder and returns its path and the folder's removal.
func writeShim(main, cwd string) (string, func(), error) {
	if !filepath.IsAbs(main) {
		if cwd == "" {
			return "", nil, errs.New(errs.AbsolutePathRequired, "main: %q is relative and no cwd was given; pass an absolute path or cwd", main).With("field", "main")
		}
		main = filepath.Join(cwd, main)
	}
	return files.PrivateFile("understudy-instrument.cjs", []byte(mainproc.LaunchShim(filepath.Clean(main))))
}
