package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/production"
)

func registerProduction(s *Server) {
	define(s, Def{
		Name: "production_validate", Title: "Validate a packaged Electron app", Class: classLifecycle,
		Effects:    Effects{Does: kRead, Reads: []string{"appPath"}},
		Desc:       "Check a packaged Electron app on disk without running it (pure Go, no session): the fuse wire in its binary, app.asar (header, file list, unpacked files, SHA-256 integrity of every file), Electron/Chromium versions, literal webPreferences in the main bundle, and whether --inspect, SIGUSR1 (inject), --remote-debugging-port and a main script outside app.asar would be accepted given the fuses (debugging). appPath: an unpacked app folder, a macOS .app, an AppImage, an Electron executable or an .asar. Each check is pass, fail (verified bad) or unknown (no evidence); passed is false when any check failed. checks picks a subset: fuses, asar, asar-integrity, versions, web-preferences, appimage. The same report as `understudy production validate --json`.",
		VerifiedOn: "artifacts written by @electron/asar 3.4.1 and fuse wires flipped and read back by @electron/fuses 2.1.3 on a stand-in binary carrying the sentinel" + standInUnverified + " binaries and packaged apps",
	}, productionValidate)
}

func productionValidate(ctx context.Context, c *Call, a *production.Request) (*production.Report, error) {
	real, err := c.Server.files.CheckReadPath(ctx, "appPath", a.AppPath)
	if err != nil {
		return nil, err
	}
	r, err := production.Validate(ctx, real, production.Options{Checks: a.Checks})
	if err != nil {
		return nil, err
	}
	r.AppPath = a.AppPath
	return r, nil
}
