package svc

// Key names one service of type T. Keys compare by their type and name:
// declare each once (a package-level value, never reassigned).
type Key[T any] struct{ name string }

// New returns the key of a service; name says what it is in messages.
func New[T any](name string) Key[T] { return Key[T]{name: name} }

// String is the key's name.
func (k Key[T]) String() string { return k.name }
