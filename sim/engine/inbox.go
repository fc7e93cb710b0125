package engine

import "sync"

// observation is one informer event on a Workload or pod: the object (and
// the previous one on update), as the informer's cache holds it. Objects
// from the cache are never modified, so the engine's loop may read them
// later.
type observation struct {
	old, obj any
	deleted  bool
}

// inbox is where informer handlers leave observations for the engine's
// loop: the only state they share with it.
type inbox struct {
	mu    sync.Mutex
	items []observation
}

func (b *inbox) add(o observation) {
	b.mu.Lock()
	b.items = append(b.items, o)
	b.mu.Unlock()
}

// take returns the observations queued so far, oldest first, and empties
// the inbox.
func (b *inbox) take() []observation {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.items
	b.items = nil
	return out
}
