package kueuesetup

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/scheduler/preemption/fairsharing"
)

// WeightedShare is the weighted share Kueue's fair sharing ranks the
// ClusterQueue name (or, with cohort set, the Cohort) by now, read from
// Kueue's scheduler cache and rounded as Kueue's controllers write it to
// status.fairSharing.weightedShare. False when fair sharing is off or
// Kueue's cache does not hold the name.
func (k *Kueue) WeightedShare(name string, cohort bool) (int64, bool) {
	if k == nil || !fairsharing.Enabled(k.Config.FairSharing) {
		return 0, false
	}
	if cohort {
		stats, err := k.Cache.CohortStats(&kueue.Cohort{ObjectMeta: metav1.ObjectMeta{Name: name}})
		if err != nil {
			return 0, false
		}
		return core.WeightedShare(stats.WeightedShare), true
	}
	stats, err := k.Cache.Usage(&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: name}})
	if err != nil {
		return 0, false
	}
	return core.WeightedShare(stats.WeightedShare), true
}

// Reserving is how many workloads hold quota in the ClusterQueue name in
// Kueue's scheduler cache, those Kueue's scheduler has admitted but not yet
// written to the API among them; false when the cache does not hold the
// name.
func (k *Kueue) Reserving(name string) (int, bool) {
	if k == nil {
		return 0, false
	}
	stats, err := k.Cache.Usage(&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: name}})
	if err != nil {
		return 0, false
	}
	return stats.ReservingWorkloads, true
}
