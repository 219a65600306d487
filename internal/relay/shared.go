package relay

import "context"

// Opener returns a relay in front of opts.Upstream started for life (New,
// then Start): a session holds it (session.Attach) until it closes.
func Opener(opts Options) func(life context.Context) (*Relay, func() error, error) {
	return func(life context.Context) (*Relay, func() error, error) {
		r, err := New(opts)
		if err != nil {
			return nil, nil, err
		}
		// The relay outlives the call that opened it: it lives as long as
		// the session.
		if err := r.Start(life); err != nil {
			return nil, nil, err
		}
		return r, r.Close, nil
	}
}

// Shared is the relay as the scripts that share the app reach it
// (electron_relay_endpoint's result).
type Shared struct {
	WSURL   string `json:"ws_url"`
	HTTPURL string `json:"http_url"`
	Note    string `json:"note"`
}

// Shared is where the relay answers, with what each client gets.
func (r *Relay) Shared() *Shared {
	return &Shared{WSURL: r.WSURL(), HTTPURL: r.HTTPURL(),
		Note: "each client gets its own sessions and sockets; Browser.close from a client closes only that client's connection"}
}
