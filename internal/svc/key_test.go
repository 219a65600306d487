package svc

import "testing"

// Keys of one type with different names are different keys, and keys of
// different types with one name too: a map keyed by them never confuses
// two services.
func TestKeysAreDistinct(t *testing.T) {
	m := map[any]int{}
	m[New[int]("a")] = 1
	m[New[int]("b")] = 2
	m[New[string]("a")] = 3
	if len(m) != 3 || m[New[int]("a")] != 1 || m[New[string]("a")] != 3 {
		t.Fatalf("keys collide: %v", m)
	}
	if New[int]("relay").String() != "relay" {
		t.Fatal("name")
	}
}
