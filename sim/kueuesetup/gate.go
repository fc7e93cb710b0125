package kueuesetup

import (
	"sync"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	"sigs.k8s.io/kueue/pkg/workload"
)

// SchedulerGate holds Kueue's scheduler between two scheduling cycles, so
// that everything that happens at one simulated instant (arrivals, ends of
// runs) is in Kueue's queues before Kueue schedules any of it, as it would
// be if those things happened at once.
//
// Kueue's scheduler starts a cycle by taking the head of every active
// ClusterQueue from the queue manager, and blocks while there is none. The
// queue manager asks a StatusChecker (Kueue's scheduler cache) whether a
// ClusterQueue is active; the gate stands between the two and answers "no"
// for every ClusterQueue while it is held. Workloads are still queued,
// ordered and counted while the gate is held; the cycle already running
// when Hold is called finishes. Kueue's pending-workloads gauge counts a
// held ClusterQueue's workloads as inadmissible, as it does for an inactive
// one, and is recomputed on Release.
type SchedulerGate struct {
	checker qcache.StatusChecker
	mu      sync.RWMutex
	held    bool
	queues  *qcache.Manager
}

var _ qcache.StatusChecker = (*SchedulerGate)(nil)

// ClusterQueueActive is the StatusChecker the queue manager calls.
func (g *SchedulerGate) ClusterQueueActive(name kueue.ClusterQueueReference) bool {
	g.mu.RLock()
	held := g.held
	g.mu.RUnlock()
	return !held && g.checker.ClusterQueueActive(name)
}

// Hold keeps Kueue's scheduler from starting another cycle.
func (g *SchedulerGate) Hold() {
	g.mu.Lock()
	g.held = true
	g.mu.Unlock()
}

// Release lets Kueue's scheduler take the heads of its queues again: the
// pending gauges are recomputed and the scheduler is woken.
func (g *SchedulerGate) Release() {
	g.mu.Lock()
	was := g.held
	g.held = false
	g.mu.Unlock()
	if was && g.queues != nil {
		g.queues.ResyncGaugeMetrics()
		g.queues.Broadcast()
	}
}

// Queued tells whether Kueue's queue manager holds the Workload
// namespace/name as pending and ready to be tried (not inadmissible,
// admitted or unknown).
func (g *SchedulerGate) Queued(namespace, name string) bool {
	return g.queues != nil && g.queues.GetWorkloadFromCache(workload.NewReference(namespace, name)) != nil
}
