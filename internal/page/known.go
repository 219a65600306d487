package page

// KnownRef is what a ref named when the agent last saw it: the surface that
// issued it and the element's role and accessible name then.
type KnownRef struct {
	SurfaceID string
	Role      string
	Name      string
}

// Known returns what ref named when it was issued, from any surface of the
// store, without touching a renderer. Traces use it to record a ref as a
// role and a name (refs are numbers of one run; roles and names replay).
// A surface busy in an operation is skipped rather than waited for.
func (s *Store) Known(ref int) (KnownRef, bool) {
	if ref <= 0 {
		return KnownRef{}, false
	}
	s.mu.Lock()
	ids := make([]string, 0, len(s.surfaces))
	all := make([]*surface, 0, len(s.surfaces))
	for id, sf := range s.surfaces {
		ids = append(ids, id)
		all = append(all, sf)
	}
	s.mu.Unlock()
	for i, sf := range all {
		if !sf.mu.TryLock() {
			continue
		}
		info, ok := sf.known[ref]
		sf.mu.Unlock()
		if ok {
			return KnownRef{SurfaceID: ids[i], Role: info.role, Name: info.name}, true
		}
	}
	return KnownRef{}, false
}
