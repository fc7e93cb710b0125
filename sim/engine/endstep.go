package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// endStep records the step's observations, notices workloads that started
// or stopped running, and schedules the ends of runs. It looks only at the
// workloads whose state changed during the step, in key order.
func (r *Runner) endStep(extra []record.Event) error {
	r.obs.drain()
	evs := append(r.obs.buf, extra...)
	r.obs.buf = nil
	now := r.clock.Elapsed()
	for _, st := range r.obs.takeDirty() {
		running := r.isRunning(st)
		if running && st.running && st.runAdmission != st.admissions {
			// Evicted and admitted again within the step: the run under
			// the earlier admission ended, and its end is stale.
			st.running = false
			st.generation++
		}
		switch {
		case running && !st.running:
			st.running, st.runAdmission = true, st.admissions
			r.obs.emit(st, record.Event{Type: record.TypeRunning})
			if d := st.arrival.Duration; d > 0 {
				r.queue.push(&item{at: now + d, act: actFinish, st: st, generation: st.generation})
			}
		case !running && st.running && !st.finished && !st.deleted:
			st.running = false
			st.generation++
		}
		r.notePrune(st)
		if p := !st.refused && !st.admitted && !st.finished && !st.deleted && !st.running; p != st.pending {
			st.pending = p
			if p {
				r.pending++
			} else {
				r.pending--
			}
		}
	}
	evs = append(evs, r.obs.buf...)
	r.obs.buf = nil

	for i := range evs {
		r.tally(evs[i])
		if evs[i].T == 0 && evs[i].Type == record.TypeWarning {
			evs[i].T = record.Duration(now)
		}
	}
	evs = append(evs, r.shares.take()...)
	counts, err := r.counted.take()
	if err != nil {
		return err
	}
	evs = append(evs, counts...)
	r.counts.Sim, r.counts.Pending = now, r.pending
	if err := r.write(evs); err != nil {
		return err
	}
	if r.progress != nil {
		r.progress(r.counts)
	}
	return nil
}

func (r *Runner) isRunning(st *wlState) bool {
	if st.refused || st.finished || st.deleted {
		return false
	}
	if k, ok := kindOf(st.arrival.Stream.Kind).(kindWithRunning); ok {
		return k.running(st)
	}
	if r.queued(&st.arrival) && !st.admitted {
		return false
	}
	return len(st.runningPods) >= PodCount(st.arrival.Stream)
}

func (r *Runner) tally(e record.Event) {
	switch e.Type {
	case record.TypeAdmitted:
		r.counts.Admitted++
	case record.TypeFinished:
		r.counts.Finished++
	case record.TypeRefused:
		r.counts.Refused++
	case record.TypePreempted:
		r.counts.Preempted++
	}
}

// write appends events to the logs: all of them to the event log, the
// decisions in deterministic order and without wall-clock fields to the
// decision log.
func (r *Runner) write(evs []record.Event) error {
	r.all = append(r.all, evs...)
	var errs []error
	if r.events != nil {
		for _, e := range evs {
			errs = append(errs, r.events.Write(e))
		}
		errs = append(errs, r.events.Flush())
	}
	if r.decisions != nil {
		var ds []record.Event
		for _, e := range evs {
			if record.IsDecision(e.Type) {
				ds = append(ds, record.Decision(e))
			}
		}
		record.SortStep(ds)
		for _, e := range ds {
			errs = append(errs, r.decisions.Write(e))
		}
		errs = append(errs, r.decisions.Flush())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("writing the run's logs: %w", err)
	}
	return nil
}

// spanEnd is the simulated time a run ends at, the end of the span its
// utilization and waits are measured over: the scenario's end if it has
// one, where an interrupted run stopped, and otherwise the last instant
// that recorded something other than a warning. A step where nothing
// happened does not stretch the span: skipIdleRequeue takes no step for a
// requeue instant while Kueue has nothing pending, and this drops any
// other idle tail (a CI run under load once stepped one idle second past
// the last finish).
func (r *Runner) spanEnd(runErr error) time.Duration {
	if runErr != nil || r.s.End != nil {
		return r.clock.Elapsed()
	}
	var last time.Duration
	for _, e := range r.all {
		if e.Type != record.TypeWarning {
			last = max(last, e.T.D())
		}
	}
	return last
}

// planEnd is the simulated time the progress bar runs to.
func (r *Runner) planEnd(arrivals []Arrival) time.Duration {
	if r.s.End != nil {
		return r.s.End.Duration
	}
	var end time.Duration
	for _, a := range arrivals {
		if t := a.At + a.Duration; t > end {
			end = t
		}
	}
	return end
}
