package tool

// registerWaits registers the wait and expectation tools.
func registerWaits(s *Server) {}
