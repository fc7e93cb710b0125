package engine

import (
	"context"
	"fmt"
	"time"
)

// workloadWait bounds how long the engine waits for Kueue to make the
// Workload of a submitted object before it moves on unpaced.
const workloadWait = 10 * time.Second

// pace delays a submission into an ordering domain until the wall-clock
// second after the domain's latest Workload was created: Kueue orders
// equal-priority pending workloads by creation time with one-second
// resolution and breaks ties at random, and any workload may be pending
// later (when it is preempted), so every Workload of a domain gets its own
// second.
func (r *Runner) pace(ctx context.Context, domain string) error {
	if r.pacing != Strict {
		return nil
	}
	last, ok := r.lastSecond[domain]
	if !ok {
		return nil
	}
	wait := time.Until(last.Add(time.Second))
	if wait <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(wait + 5*time.Millisecond):
		return nil
	}
}

// awaitWorkload waits until Kueue has made the submitted object's Workload
// and notes the second it was created in.
func (r *Runner) awaitWorkload(ctx context.Context, st *wlState, domain string) error {
	deadline := time.Now().Add(workloadWait)
	for {
		r.obs.mu.Lock()
		created := st.wlCreated
		r.obs.mu.Unlock()
		if !created.IsZero() {
			if sec := created.Truncate(time.Second); sec.After(r.lastSecond[domain]) {
				r.lastSecond[domain] = sec
			}
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("submitting %s: Kueue made no Workload for it within %s (is its namespace managed by Kueue and its queue label right?)", st.key, workloadWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}
