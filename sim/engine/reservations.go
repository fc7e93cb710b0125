package engine

import (
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// reservations counts, per ClusterQueue, the Workloads the API shows
// holding quota, by Kueue's own rule for its cache (quota reserved, not
// finished, active), from every Workload observation. Kueue's scheduler
// reserves quota in its cache first and writes the admission to the API
// in a goroutine of its own afterwards; while the two counts differ, Kueue
// has decided something the API does not show yet, which no work queue or
// gauge says. Owned by the engine's loop.
type reservations struct {
	held  map[string]string // namespace/name of a Workload → its ClusterQueue
	count map[string]int
	// mismatch: since when the counts of a ClusterQueue have differed,
	// and the observations seen by then (see inFlight).
	since    time.Time
	observed int64
}

func newReservations() *reservations {
	return &reservations{held: map[string]string{}, count: map[string]int{}}
}

// observe records a Workload as the API shows it; deleted: it is gone.
func (r *reservations) observe(wl *kueue.Workload, deleted bool) {
	key := wl.Namespace + "/" + wl.Name
	cq := ""
	if !deleted && wl.Status.Admission != nil &&
		apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadQuotaReserved) &&
		!apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) &&
		(wl.Spec.Active == nil || *wl.Spec.Active) {
		cq = string(wl.Status.Admission.ClusterQueue)
	}
	if old, ok := r.held[key]; ok {
		if old == cq {
			return
		}
		r.count[old]--
		delete(r.held, key)
	}
	if cq != "" {
		r.held[key] = cq
		r.count[cq]++
	}
}

// staleMismatch is how long a difference may last with no new observation
// before inFlight stops reporting it: a rule of Kueue's cache this count
// does not follow must not hold up every step until the settle's timeout.
const staleMismatch = 2 * time.Second

// inFlight names a ClusterQueue where Kueue's cache holds a different
// number of quota reservations than the API shows, or returns the zero
// Busy. kueue reads
// Kueue's count; observed is the engine's count of observations so far.
func (r *reservations) inFlight(clusterQueues []string, kueue func(string) (int, bool), observed int64) settle.Busy {
	for _, cq := range clusterQueues {
		n, ok := kueue(cq)
		if !ok || n == r.count[cq] {
			continue
		}
		switch {
		case r.since.IsZero() || observed != r.observed:
			r.since, r.observed = time.Now(), observed
		case time.Since(r.since) > staleMismatch:
			return settle.Busy{}
		}
		return settle.Reservations(cq, n, r.count[cq])
	}
	r.since = time.Time{}
	return settle.Busy{}
}
