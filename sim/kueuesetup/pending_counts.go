package kueuesetup

import (
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"sigs.k8s.io/kueue/pkg/metrics"
)

// PendingCounts is a ClusterQueue's pending workloads as Kueue's
// kueue_pending_workloads{cluster_queue, status} gauge publishes them (the
// numbers Kueue's integration tests assert with
// util.ExpectPendingWorkloadsMetric): Active are in the ClusterQueue's
// admission queue (its heap, and the head a cycle is trying), Inadmissible
// failed an admission attempt and wait for a change in the cluster, or
// belong to a ClusterQueue Kueue holds inactive.
type PendingCounts struct {
	Active, Inadmissible int
}

// pendingGauge gathers Kueue's kueue_pending_workloads alone: the gauge
// is process-wide, and a process runs one Kueue (setup.go).
var pendingGauge = sync.OnceValue(func() prometheus.Gatherer {
	reg := prometheus.NewRegistry()
	reg.MustRegister(metrics.PendingWorkloads)
	return reg
})

// publishedPending reads kueue_pending_workloads as Kueue last set it,
// for every ClusterQueue it has reported. It reads, never recounts: Kueue
// sets the gauge whenever something touches a ClusterQueue's queue.
func publishedPending() (map[string]PendingCounts, error) {
	mfs, err := pendingGauge().Gather()
	if err != nil {
		return nil, fmt.Errorf("reading Kueue's pending-workloads gauge: %w", err)
	}
	out := map[string]PendingCounts{}
	for _, mf := range mfs {
		if mf.GetName() != "kueue_pending_workloads" {
			continue
		}
		for _, m := range mf.GetMetric() {
			cq, status := labelValue(m, "cluster_queue"), labelValue(m, "status")
			c := out[cq]
			switch n := int(m.GetGauge().GetValue()); status {
			case metrics.PendingStatusActive:
				c.Active += n
			case metrics.PendingStatusInadmissible:
				c.Inadmissible += n
			default:
				continue
			}
			out[cq] = c
		}
	}
	return out, nil
}

func labelValue(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// PendingCounts is the ClusterQueue's pending workloads as Kueue's gauge
// published them when the step settled (see SchedulerGate.PendingCounts);
// false when Kueue has reported nothing for it, or when the gate cannot
// tell Kueue's own numbers from its hold's.
func (k *Kueue) PendingCounts(clusterQueue string) (PendingCounts, bool, error) {
	if k == nil || k.Gate == nil {
		return PendingCounts{}, false, nil
	}
	return k.Gate.PendingCounts(clusterQueue)
}
