package relay

// testBrowserID exposes the relay's browser target id to tests.
func (r *Relay) testBrowserID() string { return r.browserID }
