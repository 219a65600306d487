// Package targettest is a fake DevTools endpoint for unit tests of the
// target pool and the surface registry: /json/version, /json/list, a browser
// socket that answers Target.setDiscoverTargets and sends Target.* events,
// and one socket per target that answers Runtime.enable (with one default
// execution context per frame of its tree), Page.enable, Page.getFrameTree,
// DOM.getFrameOwner, DOM.getBoxModel and Runtime.evaluate.
//
// [New] starts it; tests shape it with [Browser.SetTargets] and
// [Browser.SetTree], push events with [Browser.EmitBrowser] and
// [Browser.Emit], and count what clients did with [Browser.Calls] and
// [Browser.Dials].
package targettest
