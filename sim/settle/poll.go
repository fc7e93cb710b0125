package settle

import (
	"context"
	"time"
)

// wait is one Settler.Wait's state between its polls.
type wait struct {
	s        *Settler
	also     func() Busy
	deadline time.Time
	lastRev  string
	rounds   int // quiet polls in a row
	retry    retryRule
	// interval is the pause before the next poll.
	interval time.Duration
}

func (s *Settler) begin(also func() Busy) *wait {
	return &wait{s: s, also: also, deadline: s.clock.Now().Add(s.timings.Timeout), interval: s.timings.Poll,
		retry: retryRule{clock: s.clock, grace: s.timings.TryGrace, progress: s.cfg.Progress, attempts: s.cfg.Attempts,
			fixedCycles: float64(s.cfg.FixedPointCycles), gauge: s.activeWorkloads, owed: s.owedBesidesKueue}}
}

// poll checks the control plane once. done means the wait is over: busy
// is then zero when the control plane is quiet, else the reason it was
// not when the wait gave up. The etcd revision is read first: while it
// changes, the control plane is not quiet and the costlier checks (Kueue's
// metrics) are skipped.
func (w *wait) poll(ctx context.Context) (busy Busy, done bool, err error) {
	s := w.s
	rev, err := s.revision(ctx)
	if err != nil {
		return Busy{}, true, err
	}
	if s.cfg.Observe != nil {
		s.cfg.Observe()
	}
	if busy, err = w.check(ctx, rev); err != nil {
		return Busy{}, true, err
	}
	moved, note, err := w.retry.judge(busy, rev, s.active)
	if err != nil {
		return Busy{}, true, err
	}
	if moved && note == "" && w.retry.fixed {
		s.waits["Kueue at a fixed point, moved on"]++
		busy = Busy{}
	} else if moved {
		// Kueue keeps popping and requeuing workloads it cannot admit (a
		// preemptor whose targets are still being evicted, a workload that
		// lost its nomination to another), and may flip their Pending
		// messages, until something changes: nothing will before simulated
		// time moves on.
		s.waits["Kueue retried without progress, moved on"]++
		if note != "" {
			s.retriedNotes = append(s.retriedNotes, note)
		}
		busy = Busy{}
	}
	if busy.IsZero() {
		w.rounds++
	} else {
		w.rounds = 0
		s.waits[busy.reasonKind()]++
	}
	if w.rounds >= s.timings.Rounds {
		went, err := s.goOn(ctx)
		if err != nil {
			return Busy{}, true, err
		}
		if !went {
			return Busy{}, true, nil
		}
		w.rounds = 0
	}
	w.lastRev = rev
	if s.clock.Now().After(w.deadline) {
		if b, err := s.busy(); err == nil && !b.IsZero() {
			busy = b
		}
		return busy, true, nil
	}
	// While the control plane stays busy, polls back off to BusyPoll: on a
	// long step they would only take CPU from the control plane (each
	// reads etcd's revision and may gather Kueue's metrics).
	if busy.IsZero() {
		w.interval = s.timings.Poll
	} else {
		w.interval = min(w.interval*3/2, max(s.timings.BusyPoll, s.timings.Poll))
	}
	return busy, false, nil
}

// check names what keeps the control plane busy at etcd revision rev, in
// order: etcd changing since the last poll, a write the informers have
// not delivered, the caller's also, then every other check (Settler.busy).
func (w *wait) check(ctx context.Context, rev string) (Busy, error) {
	if rev != w.lastRev {
		return Busy{Kind: EtcdChanging}, nil
	}
	s := w.s
	if s.cfg.Unseen != nil {
		res, err := s.cfg.Unseen(ctx)
		if err != nil {
			return Busy{}, err
		}
		if res != "" {
			return Busy{Kind: InformersBehind, Object: res}, nil
		}
	}
	if w.also != nil {
		if b := w.also(); !b.IsZero() {
			return b, nil
		}
	}
	return s.busy()
}
