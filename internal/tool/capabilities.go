package tool

import "github.com/understudy-dev/understudy/internal/session"

// capabilities is the matrix electron_launch, electron_attach and
// electron_info report (session.Capabilities). A flag is true only when a
// test in this repository proves it against a real browser; the test named
// beside each true flag is that proof. Anything not built yet is false,
// never a guess.
type capabilities = session.Capabilities

// evalPolicy says which eval tools the operator allows.
type evalPolicy = session.EvalPolicy

func (s *Server) capabilities() capabilities {
	return capabilities{
		Transport:                "cdp",
		Launch:                   true,                    // TestLaunchWindowsNavigateStop
		DevLaunch:                true,                    // TestDevLaunchStandIn (Electron stand-in, not real Electron)
		Attach:                   true,                    // TestAttachToRunningChromium
		Windows:                  true,                    // TestLaunchWindowsNavigateStop
		Navigate:                 true,                    // TestLaunchWindowsNavigateStop
		SupportsSurfaceTargeting: true,                    // TestSurfaceProof (Chromium + Electron-shaped proxy), internal/surface TestSurfacesOnChromium
		Snapshot:                 true,                    // TestObserveTools, TestSurfaceProof
		Find:                     true,                    // TestObserveTools, TestSurfaceProof
		ElementReads:             true,                    // TestObserveTools
		Click:                    true,                    // TestSurfaceProof (in-process frame, nested OOPIF, webview guest, overlay)
		Keys:                     true,                    // TestSurfaceProof
		Interaction:              true,                    // TestInteractTopPage, TestInteractSurfaces (top page, same-site frame two deep, nested OOPIF, webview guest)
		ClickAtPoint:             true,                    // TestClickAtPoint, TestClickAtPointInFrames (Chart.js canvas; in-process frame two deep, nested OOPIF)
		DragReorder:              true,                    // TestDragSortableJS (SortableJS HTML drag, fallback and draggable modes; order checked)
		Waits:                    true,                    // TestWaitsOnEverySurface
		Expectations:             true,                    // TestWaitsOnEverySurface
		Inject:                   s.cfg.AllowEvalMain,     // TestInjectIntoRunningNode (a Node process; Electron's fuses are not exercised here)
		RendererEval:             s.cfg.AllowEvalRenderer, // TestSurfaceProof; absent unless the operator allows it
		MainEval:                 s.cfg.AllowEvalMain,     // TestDevLaunchStandIn (real Node inspector of the stand-in); TRANSPORT_UNSUPPORTED without an inspector
		Screenshots:              true,                    // TestScreenshot (window, element in the nested OOPIF, full page, clip, jpeg)
		Console:                  true,                    // TestConsoleLogs
		Dialogs:                  true,                    // TestDialogHandler
		Network:                  false,
		Relay:                    true, // TestRelayEndpoint; internal/relay TestPlaywright, TestPuppeteer, TestChromedp
		EvalAllowed:              evalPolicy{Main: s.cfg.AllowEvalMain, Renderer: s.cfg.AllowEvalRenderer},
	}
}
