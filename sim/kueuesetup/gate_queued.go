package kueuesetup

import (
	"k8s.io/apimachinery/pkg/util/sets"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	"sigs.k8s.io/kueue/pkg/workload"
)

// Queued returns a lookup of whether Kueue's queue manager holds the
// Workload namespace/name as pending: in its ClusterQueue's heap, among
// its inadmissible workloads, or in the scheduling cycle under way. The
// queue manager answers that per ClusterQueue, listing (and sorting) its
// pending workloads, so the lookup lists them once, on its first call: a
// check over many arrivals takes one fresh lookup and reads Kueue's
// queues once.
func (g *SchedulerGate) Queued() func(namespace, name string) bool {
	var pending sets.Set[workload.Reference]
	return func(namespace, name string) bool {
		if g.queues == nil {
			return false
		}
		if pending == nil {
			pending = pendingInCache(g.queues)
		}
		return pending.Has(workload.NewReference(namespace, name))
	}
}

// pendingInCache is every Workload queues holds as pending. Every
// supported Kueue release lists pending workloads per ClusterQueue
// (GetClusterQueueNames, PendingWorkloadsInfo); v0.17.1 and later have no
// lookup by key.
func pendingInCache(queues *qcache.Manager) sets.Set[workload.Reference] {
	pending := sets.New[workload.Reference]()
	for _, cq := range queues.GetClusterQueueNames() {
		for _, info := range queues.PendingWorkloadsInfo(cq) {
			pending.Insert(workload.Key(info.Obj))
		}
	}
	return pending
}
