package target

import "github.com/understudy-dev/understudy/internal/cdp"

// Event is an event a socket of the pool received, as Pool.Listen hands
// it to a listener. Its wire form is decoded by the domain packages
// (internal/capture), so a listener outside them need not import cdp.
type Event = cdp.Event
