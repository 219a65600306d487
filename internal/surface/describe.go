package surface

// Describe returns the descriptor of the surface with this id (live or a
// tombstone) from the registry's state, without a CDP call and without
// changing the selection.
func (r *Registry) Describe(id string) (Descriptor, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.byID[id]
	if n == nil {
		return Descriptor{}, false
	}
	return r.describeLocked(n), true
}
