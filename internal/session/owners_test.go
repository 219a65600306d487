package session

import "testing"

func TestOwnersSeeTheirOwn(t *testing.T) {
	var o Owners
	o.Set("s1", "client-a")
	if !o.Sees("client-a", "s1") || o.Sees("client-b", "s1") {
		t.Fatal("a client sees another's session")
	}
	o.Shared = true
	if !o.Sees("client-b", "s1") {
		t.Fatal("--share-sessions hides a session")
	}
	o.Drop("s1")
	if o.Of("s1") != "" {
		t.Fatal("a dropped session kept its owner")
	}
	if got := IDs([]*Session{{ID: "s2"}, {ID: "s1"}}); got != "s1, s2" {
		t.Fatalf("IDs = %q", got)
	}
	for raw, want := range map[string]int{"http://127.0.0.1:9222": 9222, "ws://localhost/devtools": 0, "%": 0} {
		if got := PortOfURL(raw); got != want {
			t.Errorf("PortOfURL(%q) = %d, want %d", raw, got, want)
		}
	}
}
