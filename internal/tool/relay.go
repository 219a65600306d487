package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/relay"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
)

// relayKey names the session"s relay.
var relayKey = svc.New[*relay.Relay]("relay")

func registerRelay(s *Server) {
	define(s, Def{
		Name: "electron_relay_endpoint", Title: "Share the app through a CDP relay", Profiles: "D", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kSelect, Page: pageFree},
		Short:   "A loopback CDP URL for a Playwright, Puppeteer or chromedp script to share this app.",
		Desc:    "Start (once per session) a CDP relay in front of this session's app and return {ws_url, http_url}: a Playwright (connectOverCDP), Puppeteer (connect) or chromedp script can then share the app you drive, isolated from you and from each other. Loopback only.",
	}, relayEndpoint)
}

type relayArgs struct {
	Common
	Token string `json:"token,omitempty" jsonschema:"require this token from clients (?token= or Authorization: Bearer)"`
}

func relayEndpoint(ctx context.Context, c *Call, a *relayArgs) (*relay.Shared, error) {
	r, err := session.Attach(c.Session, relayKey, relay.Opener(relay.Options{Upstream: c.Session.Endpoint, Token: a.Token, Logger: c.Server.cfg.Logger, Files: c.Server.files}))
	if err != nil {
		return nil, err
	}
	return r.Shared(), nil
}
