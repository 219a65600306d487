package tool

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/understudy-dev/understudy/internal/mcpwire"
	"github.com/understudy-dev/understudy/internal/session"
)

// New builds the server and registers every tool the configuration allows.
func New(cfg Config) *Server {
	if cfg.OperationTimeout <= 0 {
		cfg.OperationTimeout = 120 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	s := &Server{cfg: cfg, started: time.Now(), sessions: session.NewManager()}
	s.owners.Shared = cfg.ShareSessions
	s.sdkLog = cfg.Logger
	s.log = slog.New(slog.NewMultiHandler(cfg.Logger.Handler(), mcpwire.ClientLog(&s.mcps)))
	s.cfg.Logger = s.log
	s.life, s.cancel = context.WithCancel(context.Background())
	sel, err := newSelection(cfg.ToolProfile, cfg.With)
	if err != nil {
		cfg.Logger.Error("tool selection refused; offering the essential profile", "err", err)
		sel.profile = "essential"
	}
	s.sel = sel
	s.files = newFileRoots(cfg)
	s.reg.groups = []func(*Server){registerCatalog, registerLifecycle, registerWindows, registerSurfaces, registerObserve, registerInteract, registerFillForm, registerWaits, registerDialogs, registerConsole, registerNetwork, registerScreenshot, registerRelay, registerTrace, registerVisual, registerA11y, registerStorage, registerWindowOps, registerEmulation, registerClock, registerProduction, registerElectronDeep, registerElectronInstrument, registerDownloads}
	return s
}
