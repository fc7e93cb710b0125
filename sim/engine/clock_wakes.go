package engine

import (
	"cmp"
	"container/heap"
	"time"
)

// WakeAt runs f when simulated time reaches at, and, unlike
// AfterSimulated, makes at an instant of the replay if nothing else is due
// then: the engine plans one at NextWake. kueuesetup puts the delays of
// Kueue's Workload and LocalQueue reconcilers on it
// (kueuesetup.WithInstantTimers): a PodsReady timeout, the end of a
// requeuing back-off, admission fair sharing's next usage sample. It does
// so on a clock made for a realtime run too, whose instants the engine
// paces to the wall clock. A time already reached runs f at once. cancel
// drops the timer: it neither runs f nor counts for NextWake. f must not
// block.
func (c *VirtualClock) WakeAt(at time.Duration, f func()) (cancel func()) {
	c.mu.Lock()
	if at <= c.now { // the clock moved on since the caller read it
		c.mu.Unlock()
		f()
		return func() {}
	}
	w := &wakeTimer{at: at, seq: c.wakes.seq, f: f}
	c.wakes.seq++
	heap.Push(&c.wakes, w)
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		w.dead = true
		c.mu.Unlock()
	}
}

// NextWake is the earliest time a live WakeAt timer waits for, if any.
func (c *VirtualClock) NextWake() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wakes.dropDead()
	if len(c.wakes.timers) == 0 {
		return 0, false
	}
	return c.wakes.timers[0].at, true
}

// wakeTimer is a WakeAt timer; dead once cancelled.
type wakeTimer struct {
	at   time.Duration
	seq  uint64 // the order timers were made in breaks ties
	f    func()
	dead bool
}

// wakeHeap holds the WakeAt timers, earliest first; cancelled ones stay
// until they reach the top. Its methods need the clock's mu.
type wakeHeap struct {
	timers []*wakeTimer
	seq    uint64
}

func (h *wakeHeap) Len() int { return len(h.timers) }
func (h *wakeHeap) Less(i, j int) bool {
	a, b := h.timers[i], h.timers[j]
	if c := cmp.Compare(a.at, b.at); c != 0 {
		return c < 0
	}
	return a.seq < b.seq
}
func (h *wakeHeap) Swap(i, j int) { h.timers[i], h.timers[j] = h.timers[j], h.timers[i] }
func (h *wakeHeap) Push(x any)    { h.timers = append(h.timers, x.(*wakeTimer)) }
func (h *wakeHeap) Pop() any {
	last := h.timers[len(h.timers)-1]
	h.timers[len(h.timers)-1] = nil
	h.timers = h.timers[:len(h.timers)-1]
	return last
}

// dropDead removes cancelled timers from the top.
func (h *wakeHeap) dropDead() {
	for len(h.timers) > 0 && h.timers[0].dead {
		heap.Pop(h)
	}
}

// takeDue removes the timers due at now and returns the live ones,
// earliest first.
func (h *wakeHeap) takeDue(now time.Duration) []simTimer {
	var due []simTimer
	for len(h.timers) > 0 && h.timers[0].at <= now {
		w := heap.Pop(h).(*wakeTimer)
		if !w.dead {
			due = append(due, simTimer{at: w.at, f: w.f, wake: true})
		}
	}
	return due
}
