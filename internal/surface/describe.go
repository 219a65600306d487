package surface

import "context"

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

// WindowTree is the surface tree of the active surface's window: its root
// (the surface with no live parent above the active one), every surface by
// id, and each surface's children in the registry's order.
func (r *Registry) WindowTree(ctx context.Context) (root string, byID map[string]Descriptor, children map[string][]string, err error) {
	list, err := r.List(ctx)
	if err != nil {
		return "", nil, nil, err
	}
	byID = map[string]Descriptor{}
	children = map[string][]string{}
	for _, d := range list {
		byID[d.ID] = d
		if d.ParentID != "" {
			children[d.ParentID] = append(children[d.ParentID], d.ID)
		}
	}
	root = r.Active()
	for range list { // up to the window root
		d, ok := byID[root]
		if !ok || d.ParentID == "" || byID[d.ParentID].ID == "" {
			break
		}
		root = d.ParentID
	}
	return root, byID, children, nil
}
