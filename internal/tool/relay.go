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

// relayResult is electron_relay_endpoint's result.
type relayResult struct {
	WSURL   string `json:"ws_url"`
	HTTPURL string `json:"http_url"`
	Note    string `json:"note"`
}

func relayEndpoint(ctx context.Context, c *Call, a *relayArgs) (*relayResult, error) {
	r, err := session.Attach(c.Session, relayKey, func(life context.Context) (*relay.Relay, func() error, error) {
		r, err := relay.New(relay.Options{Upstream: c.Session.Endpoint, Token: a.Token, Logger: c.Server.cfg.Logger, Files: c.Server.files})
		if err != nil {
			return nil, nil, err
		}
		// The relay outlives this call: it lives as long as the session.
		if err := r.Start(life); err != nil {
			return nil, nil, err
		}
		return r, r.Close, nil
	})
	if err != nil {
		return nil, err
	}
	return &relayResult{WSURL: r.WSURL(), HTTPURL: r.HTTPURL(),
		Note: "each client gets its own sessions and sockets; Browser.close from a client closes only that client's connection"}, nil
}
