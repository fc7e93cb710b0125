package engine

import (
	"sync"
	"time"

	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
)

// Epoch is simulated time zero, as a wall date: it goes into timestamps the
// simulator writes (pod start and finish times).
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// VirtualClock is the only source of simulated time. kueue-sim's own
// controllers (the fake kubelet and operators, the reconciler) stamp status
// with it, and so does Kueue's scheduler: its admission and preemption
// timestamps, which order preemption candidates, are then simulated times
// rather than wall-clock seconds that tie at random. Timers and tickers
// (clock.Clock's waiting half) run on the wall clock: nothing in simulated
// time waits on them.
type VirtualClock struct {
	clock.RealClock // timers, tickers and sleeps
	mu              sync.RWMutex
	now             time.Duration

	orderOnce sync.Once
	queue     *QueueOrder

	timers     []simTimer // waiting for simulated time; see AfterSimulated
	wakes      wakeHeap   // waiting for simulated time, instants of their own; see WakeAt
	wallTimers bool       // AfterSimulated waits on the wall clock (WallTimers)
}

// order is the clock's QueueOrder: the simulated creation times Kueue sees.
func (c *VirtualClock) order() *QueueOrder {
	c.orderOnce.Do(func() { c.queue = NewQueueOrder(c) })
	return c.queue
}

// WorkloadTransform is the informer transform that shows Kueue each
// Workload as created at its arrival on c (see QueueOrder); every control
// plane a run drives needs it (cluster.WithWorkloadTransform).
func WorkloadTransform(c *VirtualClock) toolscache.TransformFunc { return c.order().Transform }

var _ clock.Clock = (*VirtualClock)(nil)

// Elapsed is the simulated time since the start of the run.
func (c *VirtualClock) Elapsed() time.Duration {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.now
}

// Set moves simulated time to t, then runs the functions AfterSimulated
// and WakeAt hold for t or earlier, earliest first. Time never goes back.
func (c *VirtualClock) Set(t time.Duration) { c.advance(t) }

// fired counts the timers a move of the clock ran, by kind.
type fired struct {
	wakes  int // WakeAt timers: Kueue's Workload and LocalQueue reconcilers' waits
	timers int // AfterSimulated timers: Kueue's status batching
}

// advance is Set, telling what it ran.
func (c *VirtualClock) advance(t time.Duration) fired {
	c.mu.Lock()
	if t > c.now {
		c.now = t
	}
	due := c.takeDue()
	c.mu.Unlock()
	var n fired
	for _, tm := range due {
		if tm.wake {
			n.wakes++
		} else {
			n.timers++
		}
		tm.f()
	}
	return n
}

// Now is Epoch plus the elapsed simulated time.
func (c *VirtualClock) Now() time.Time { return Epoch.Add(c.Elapsed()) }

// Since is the simulated time since t.
func (c *VirtualClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
