// Package urlpolicy holds the URL rules every path that opens a URL for a
// client applies: the CDP relay (Target.createTarget, Page.navigate,
// /json/new) and the MCP navigation tool. [BrowserActing] refuses the
// pages that act on the browser itself (chrome://quit, chrome://crash,
// about:quit, ...), decided by scheme as Chromium's URL parser reads it.
package urlpolicy
