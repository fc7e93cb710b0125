package engine

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kueue-sim/kueue-sim/sim/record"
	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// prepareArrival does an arrival's bookkeeping on the loop — its state,
// its Arrived event, its creation time for Kueue's queues — and returns the
// call that submits it.
func (r *Runner) prepareArrival(a *Arrival, position int, seq int64) (*wlState, call, error) {
	obj, err := WorkloadObject(*a, r.priorities)
	if err != nil {
		return nil, call{}, err
	}
	cq := r.lqToCQ[a.Team.Namespace+"/"+a.Stream.Queue]
	if hp := r.profileQueue(a.Stream.HardwareProfile); hp != "" {
		cq = r.lqToCQ[a.Team.Namespace+"/"+hp]
	}
	key := a.Team.Namespace + "/" + a.Name
	r.order.arrive(key, a.At, position, seq)
	st := r.obs.track(*a, key, cq)
	r.obs.emit(st, record.Event{Type: record.TypeArrived, ClusterQueue: cq, Priority: r.priorities[a.Stream.PriorityClass],
		Requests: totalRequests(a.Stream), Pods: PodCount(a.Stream)})
	r.counts.Arrived++
	var refusal error // set by do, read by after: never at the same time
	return st, call{
		do: func(ctx context.Context) error {
			err := r.t.Client.Create(ctx, obj)
			if apierrors.IsForbidden(err) || apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) {
				refusal, err = err, nil // a webhook's answer, not the run's failure
			}
			return err
		},
		after: func(err error) error {
			switch {
			case err != nil:
				return fmt.Errorf("submitting %s %s: %w", a.Stream.Kind, st.key, err)
			case refusal != nil:
				st.refused = true
				r.obs.touch(st)
				r.obs.emit(st, record.Event{Type: record.TypeRefused, Reason: string(apierrors.ReasonForError(refusal)), Message: refusal.Error()})
				return nil
			}
			if a.Stream.RunUntil != nil && a.Stream.RunUntil.Duration > a.At {
				r.queue.push(&item{at: a.Stream.RunUntil.Duration, act: actDelete, st: st})
			}
			return nil
		},
	}, nil
}

// queued tells whether Kueue will make a Workload for the arrival.
func (r *Runner) queued(a *Arrival) bool {
	return (a.Stream.Queue != "" || a.Stream.HardwareProfile != "") && !a.Team.Unmanaged
}

func (r *Runner) profileQueue(name string) string {
	return r.s.ProfileQueue(name)
}

// queueWait bounds how long the engine waits for Kueue to queue an
// instant's arrivals before it lets Kueue schedule without them.
var queueWait = 10 * time.Second

// notQueued is the settle check of a held instant: it names an arrival
// whose Workload Kueue has not made or not queued yet. Kueue has taken an
// arrival in when its Workload is in Kueue's queues ready to be tried, or
// Kueue said why it cannot queue it (a Pending reason: no such LocalQueue,
// an inactive ClusterQueue). After queueWait it gives up on the arrivals
// still missing and tells warn, once, which one it waited for.
func (r *Runner) notQueued(arrived []*wlState, warn func(string)) func() settle.Busy {
	deadline := time.Now().Add(queueWait)
	var last settle.Busy
	warned := false
	return func() settle.Busy {
		if time.Now().After(deadline) {
			if !warned && !last.IsZero() {
				warned = true
				warn(fmt.Sprintf("%s after %s; Kueue schedules the instant without it, so this step's decisions may depend on machine speed", last, queueWait))
			}
			return settle.Busy{}
		}
		last = r.missing(arrived)
		return last
	}
}

// missing names the first arrival Kueue has not taken in yet, or returns
// the zero Busy.
func (r *Runner) missing(arrived []*wlState) settle.Busy {
	var lookup func(namespace, name string) bool
	queued := func(namespace, name string) bool {
		if lookup == nil {
			lookup = r.t.Gate.Queued()
		}
		return lookup(namespace, name)
	}
	for _, st := range arrived {
		switch {
		case st.refused || st.admitted || st.finished || st.deleted || !r.queued(&st.arrival):
		case st.workload == "":
			return settle.Busy{Kind: settle.KueueNoWorkload, Object: st.key}
		case st.lastPending == "" && !queued(st.arrival.Team.Namespace, st.workload):
			return settle.Busy{Kind: settle.KueueNotQueued, Object: st.arrival.Team.Namespace + "/" + st.workload}
		}
	}
	return settle.Busy{}
}
