package expect

import (
	"fmt"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// state is a workload's state once one simulated instant settled.
type state struct {
	// says describes it: "was pending at 1m0s (since 0s)".
	says string
	// pending: it had arrived and waited, holding no admission, neither
	// refused, finished nor deleted.
	pending bool
	// held is the admission it held, or nil.
	held *tenure
}

// stateAt is w's state once instant at settled.
func stateAt(run *record.Run, w *record.Workload, ts []tenure, at time.Duration) state {
	if at > run.End {
		return state{says: fmt.Sprintf("cannot be judged at %s: the run ended at %s", at, run.End)}
	}
	if w.Arrived > at {
		return state{says: fmt.Sprintf("had not arrived at %s (it arrived at %s)", at, w.Arrived)}
	}
	if r := w.Refused; r != nil && r.T.D() <= at {
		return state{says: fmt.Sprintf("had been refused by the webhook at %s", r.T.D())}
	}
	since := w.Arrived
	for i := range ts {
		t := &ts[i]
		if t.heldAt(at) {
			return state{says: fmt.Sprintf("held its %s admission at %s (since %s)", ordinal(t.n), at, t.at()), held: t}
		}
		if t.to != nil && *t.to <= at {
			since = max(since, *t.to)
		}
	}
	if f := w.Finished; f != nil && f.T.D() <= at {
		return state{says: fmt.Sprintf("had finished at %s (%s)", f.T.D(), f.Reason)}
	}
	if d := w.Deleted; d != nil && *d <= at {
		return state{says: fmt.Sprintf("had been deleted at %s", *d)}
	}
	return state{says: fmt.Sprintf("was pending at %s (since %s)", at, since), pending: true}
}
