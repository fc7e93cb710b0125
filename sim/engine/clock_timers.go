package engine

import (
	"cmp"
	"slices"
	"time"
)

// simTimer is a function waiting for simulated time.
type simTimer struct {
	at   time.Duration
	f    func()
	wake bool // a WakeAt timer, not an AfterSimulated one
}

// AfterSimulated runs f once simulated time has advanced d past now: in the
// Set that moves the clock there, on the caller of Set, after the clock
// reads the new time. A timer does not make an instant of its own: it
// fires when the scenario's next instant is at or past it. kueuesetup
// puts Kueue's status batching on it (kueuesetup.WithSimulatedTimers):
// Kueue writes ClusterQueue and LocalQueue status at most once a second
// per queue, and in a replay that is once a simulated second. f must not
// block.
//
// On a clock made for a realtime run (WallTimers), f waits on the wall
// clock instead: there simulated time follows wall time but moves only at
// instants, and a status batched for a second must not wait for the next
// instant, however far off.
func (c *VirtualClock) AfterSimulated(d time.Duration, f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wallTimers {
		time.AfterFunc(d, f)
		return
	}
	c.timers = append(c.timers, simTimer{at: c.now + d, f: f})
}

// takeDue removes and returns the timers due at c.now, earliest first,
// in the order they were made where they are due at once. c.mu must be
// held.
func (c *VirtualClock) takeDue() []simTimer {
	var due []simTimer
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at <= c.now {
			due = append(due, t)
		} else {
			kept = append(kept, t)
		}
	}
	clear(c.timers[len(kept):])
	c.timers = kept
	due = append(due, c.wakes.takeDue(c.now)...)
	slices.SortStableFunc(due, func(a, b simTimer) int { return cmp.Compare(a.at, b.at) })
	return due
}

// WallTimers makes AfterSimulated wait on the wall clock, for a run paced
// to it (WithRealtime). Call it before the control plane starts.
func (c *VirtualClock) WallTimers() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wallTimers = true
}
