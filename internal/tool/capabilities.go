package tool

// capabilities is the matrix electron_launch, electron_attach and
// electron_info report. A flag is true only when a test in this repository
// proves it against a real browser; the test named beside each true flag is
// that proof. Anything not built yet is false, never a guess.
func (s *Server) capabilities() map[string]any {
	return map[string]any{
		"transport":                "cdp",
		"launch":                   true,                    // TestLaunchWindowsNavigateStop
		"devLaunch":                true,                    // TestDevLaunchStandIn (Electron stand-in, not real Electron)
		"attach":                   true,                    // TestAttachToRunningChromium
		"windows":                  true,                    // TestLaunchWindowsNavigateStop
		"navigate":                 true,                    // TestLaunchWindowsNavigateStop
		"supportsSurfaceTargeting": true,                    // TestSurfaceProof (Chromium + Electron-shaped proxy), internal/surface TestSurfacesOnChromium
		"snapshot":                 true,                    // TestObserveTools, TestSurfaceProof
		"find":                     true,                    // TestObserveTools, TestSurfaceProof
		"elementReads":             true,                    // TestObserveTools
		"click":                    true,                    // TestSurfaceProof (in-process frame, nested OOPIF, webview guest, overlay)
		"keys":                     true,                    // TestSurfaceProof
		"interaction":              true,                    // TestInteractTopPage, TestInteractSurfaces (top page, same-site frame two deep, nested OOPIF, webview guest)
		"clickAtPoint":             true,                    // TestClickAtPoint, TestClickAtPointInFrames (Chart.js canvas; in-process frame two deep, nested OOPIF)
		"dragReorder":              true,                    // TestDragSortableJS (SortableJS HTML drag, fallback and draggable modes; order checked)
		"waits":                    true,                    // TestWaitsOnEverySurface
		"expectations":             true,                    // TestWaitsOnEverySurface
		"inject":                   s.cfg.AllowEvalMain,     // TestInjectIntoRunningNode (a Node process; Electron's fuses are not exercised here)
		"rendererEval":             s.cfg.AllowEvalRenderer, // TestSurfaceProof; absent unless the operator allows it
		"mainEval":                 s.cfg.AllowEvalMain,     // TestDevLaunchStandIn (real Node inspector of the stand-in); TRANSPORT_UNSUPPORTED without an inspector
		"screenshots":              true,                    // TestScreenshot (window, element in the nested OOPIF, full page, clip, jpeg)
		"console":                  true,                    // TestConsoleLogs
		"dialogs":                  true,                    // TestDialogHandler
		"network":                  false,
		"relay":                    true, // TestRelayEndpoint; internal/relay TestPlaywright, TestPuppeteer, TestChromedp
		"evalAllowed":              map[string]bool{"main": s.cfg.AllowEvalMain, "renderer": s.cfg.AllowEvalRenderer},
	}
}
