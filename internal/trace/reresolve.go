package trace

import (
	"context"
	"strconv"

	"github.com/understudy-dev/understudy/internal/surface"
)

// Finder finds again, in the app as it is now, what a recorded step's
// targets named; the server does, through its sessions and page stores.
type Finder interface {
	// Surface is the live surface that is where place was (see
	// MatchSurface), or why none is.
	Surface(ctx context.Context, sessionID string, place *Place) (id, why string)
	// RefIn finds what t named (role and name) in the surface of this run
	// that is where t's surface was: its new ref and that surface's id,
	// or why not.
	RefIn(ctx context.Context, sessionID string, t Target) (ref int, surfaceID, why string)
	// Ref finds an element of role named name (any name when "") in the
	// active surface: its ref, 0 when there is none.
	Ref(ctx context.Context, sessionID, role, name string) int
}

// Reresolve rewrites the step's refs and surface ids for the app as it is
// now: a ref is found again by the role and name it had, in the active
// surface or (a ref of another surface) in the surface of this run that is
// where its surface was; a surface id by its URL, kind and iframe chain.
// It adds to rs.Resolved how each ref was found and returns why it could
// not.
func Reresolve(ctx context.Context, st Step, args map[string]any, rs *ReplayStep, f Finder) string {
	sid, _ := args["sessionId"].(string)
	if t, ok := st.Targets["surfaceId"]; ok && t.Place != nil {
		id, why := f.Surface(ctx, sid, t.Place)
		if why != "" {
			return why
		}
		args["surfaceId"] = id
	}
	for _, k := range []string{"ref", "targetRef"} {
		n, ok := args[k].(float64)
		if !ok || n == 0 {
			continue
		}
		t, ok := st.Targets[k]
		if !ok || (t.Role == "" && t.Name == "") {
			return "ref " + strconv.Itoa(int(n)) + " was not known when recorded, so it cannot be found again"
		}
		// A ref of another surface than the active one (a ref from a find
		// or an audit of all surfaces, acted on where it points): look in
		// that surface.
		if t.Place != nil && st.Surface != nil && t.Place.SurfaceID != st.Surface.SurfaceID {
			ref, where, why := f.RefIn(ctx, sid, t)
			if why != "" {
				return why
			}
			args[k] = ref
			rs.Resolved = append(rs.Resolved, k+" "+strconv.Itoa(int(n))+" → "+strconv.Itoa(ref)+" ("+t.Role+" \""+t.Name+"\" in "+where+")")
			continue
		}
		ref := f.Ref(ctx, sid, t.Role, t.Name)
		if ref == 0 {
			return "no element is " + t.Role + " \"" + t.Name + "\" now (ref " + strconv.Itoa(int(n)) + " when recorded)"
		}
		args[k] = ref
		rs.Resolved = append(rs.Resolved, k+" "+strconv.Itoa(int(n))+" → "+strconv.Itoa(ref)+" ("+t.Role+" \""+t.Name+"\")")
	}
	return ""
}

// FindRef is Finder.RefIn in a session the caller holds (shared), whose
// surfaces are reg: the surface of this run that is where t's surface was
// (MatchSurface), then find there (the page store's find of role named
// exactly name, as electron_find: the first match's ref, 0 when none).
func FindRef(ctx context.Context, reg *surface.Registry, t Target, find func(ctx context.Context, res *surface.Resolution, role, name string) (int, error)) (ref int, surfaceID, why string) {
	id, why := MatchSurface(ctx, reg, t.Place)
	if why != "" {
		return 0, "", why + " (ref " + strconv.Itoa(t.Ref) + " was there)"
	}
	res, err := reg.ResolveID(ctx, id)
	if err != nil {
		return 0, "", "surface " + id + " (" + t.Place.URL + "): " + err.Error()
	}
	ref, err = find(ctx, res, t.Role, t.Name)
	if err != nil {
		return 0, "", "finding " + t.Role + " \"" + t.Name + "\" in " + t.Place.URL + ": " + err.Error()
	}
	if ref == 0 {
		return 0, "", "no element is " + t.Role + " \"" + t.Name + "\" in " + t.Place.URL + " now (ref " + strconv.Itoa(t.Ref) + " when recorded)"
	}
	return ref, id, ""
}
