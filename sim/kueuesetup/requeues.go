package kueuesetup

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
)

// Kueue keeps the workloads it tried and could not admit aside
// ("inadmissible") until something frees quota in their ClusterQueue or
// cohort: a workload's end, deletion or eviction, a ClusterQueue or
// ResourceFlavor change. Such a change does not retry them at once: the
// queue manager asks its requeuer, which waits a batch period (one
// second; ten with the SchedulerLongRequeueInterval feature gate) and then
// moves every inadmissible workload of that ClusterQueue or cohort tree
// back to the active queue. Newcomers of that second are tried first.
//
// Kueue's requeuer counts that second on a wall-clock delaying queue and
// takes no clock. In a replay, which compresses simulated time, a wall
// second means nothing, and a period of 0 is no substitute: it retries a
// cohort's whole backlog after every end of a run, and so runs many more
// scheduling cycles than Kueue (1.2 per workload in the 15k baseline
// against 0.05 in Kueue's own harness), and offers freed quota to the
// backlog before newcomers, which Kueue does not.
//
// Requeues puts that second on simulated time. Kueue builds its queue
// manager, for its own tests, with a requeuer that only collects the
// requests until ProcessRequeues (qcache.NewManagerForUnitTestsWithRequeuer,
// exported, the same manager otherwise). A replay asks Pending at the end
// of each instant, makes an instant one batch period after the first
// request it sees, and calls Process there, with Kueue's scheduler held,
// before that instant's arrivals: the backlog and the newcomers then meet
// in one queue, as they do when Kueue's timer fires.
//
// One difference from Kueue stays: Kueue times each ClusterQueue or cohort
// tree on its own, and Process retries every tree with a request, so a
// tree whose first request came later in the same second is retried early
// (by less than the period).

// Requeues is Kueue's requeuing of inadmissible workloads, run by the
// caller at simulated times (see above). Its methods are for the replay's
// one goroutine, while Kueue is quiet.
type Requeues struct {
	queues    *qcache.Manager
	requeuer  testRequeuer
	requested reflect.Value // the requeuer's struct: its cqs and cohorts sets
}

// testRequeuer is what Kueue's NewManagerForUnitTestsWithRequeuer returns.
type testRequeuer interface {
	ProcessRequeues(ctx context.Context) int
}

// requestSets are the requeuer's fields holding the requests: sets of
// ClusterQueue and root cohort names.
var requestSets = []string{"cqs", "cohorts"}

// newRequeues wraps the collecting requeuer r of Kueue's queue manager
// queues, after checking that r still keeps its requests where Pending
// reads them.
func newRequeues(queues *qcache.Manager, r testRequeuer) (*Requeues, error) {
	v := reflect.ValueOf(r)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	for _, name := range requestSets {
		if f := v.FieldByName(name); v.Kind() != reflect.Struct || !f.IsValid() || f.Kind() != reflect.Map {
			return nil, fmt.Errorf("timing Kueue's requeues in simulated time: Kueue's test requeuer (%T) has no %s set (update sim/kueuesetup/requeues.go)", r, name)
		}
	}
	return &Requeues{queues: queues, requeuer: r, requested: v}, nil
}

// Period is Kueue's batch period for requeues.
func (q *Requeues) Period() time.Duration { return requeueBatchPeriod() }

// Pending names the ClusterQueues and root cohorts with a requeue request
// not yet processed, sorted. Kueue adds them holding its queue manager's
// lock, so they are read holding it.
func (q *Requeues) Pending() []string {
	q.queues.Lock()
	defer q.queues.Unlock()
	var names []string
	for _, set := range requestSets {
		iter := q.requested.FieldByName(set).MapRange()
		for iter.Next() {
			names = append(names, set+"/"+iter.Key().String())
		}
	}
	sort.Strings(names)
	return names
}

// Idle tells whether Kueue's queues hold no pending workload, active or
// inadmissible, in any ClusterQueue: a requeue would then move nothing.
func (q *Requeues) Idle() bool {
	for _, name := range q.queues.GetClusterQueueNames() {
		if n, err := q.queues.Pending(&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: string(name)}}); err == nil && n > 0 {
			return false
		}
	}
	return true
}

// Process moves the inadmissible workloads of every ClusterQueue and cohort
// tree with a request back to Kueue's active queues and returns how many
// moved. Kueue's test requeuer reads and clears its requests without the
// queue manager's lock, so Process must run while nothing in Kueue can
// request a requeue: with the scheduler held and the control plane quiet.
// Taking the lock before and after orders it after every request so far
// and before every later one.
func (q *Requeues) Process(ctx context.Context) int {
	q.queues.Lock()
	q.queues.Unlock() //nolint:staticcheck // an empty critical section: a barrier with Kueue's writers
	moved := q.requeuer.ProcessRequeues(ctx)
	q.queues.Lock()
	q.queues.Unlock() //nolint:staticcheck // as above
	return moved
}
