package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/doctor"
)

func doctorTool(ctx context.Context, c *Call, _ *noArgs) (*DoctorReport, error) {
	r := c.Server.Doctor(ctx)
	return &r, nil
}

// Check is one preflight finding (internal/doctor).
type Check = doctor.Check

// DoctorReport is what electron_doctor and `understudy doctor` print.
type DoctorReport = doctor.Report

// Doctor runs the non-mutating preflight (internal/doctor) on the server's
// configuration.
func (s *Server) Doctor(ctx context.Context) DoctorReport {
	return doctor.Run(ctx, doctor.Config{BrowserPath: s.cfg.BrowserPath, AllowEvalMain: s.cfg.AllowEvalMain, AllowEvalRenderer: s.cfg.AllowEvalRenderer,
		AppRoot: s.cfg.AppRoot, AllowAnyFile: s.cfg.AllowAnyFile, Files: s.files})
}

// FindChromium returns a Chromium binary (browser.FindChromium).
func FindChromium() string { return browser.FindChromium() }
