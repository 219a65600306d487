package a11y

import "sync"

// Cache holds the engine a server loaded, once it loads; a failure is
// tried again at the next audit, so an operator can install the engine
// while the server runs. The zero Cache is empty.
type Cache struct {
	mu  sync.Mutex
	eng *Engine
}

// Get returns the engine loaded from path (Load), loading it on first
// use.
func (c *Cache) Get(path string) (*Engine, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.eng != nil {
		return c.eng, nil
	}
	eng, err := Load(path)
	if err != nil {
		return nil, err
	}
	c.eng = eng
	return eng, nil
}
