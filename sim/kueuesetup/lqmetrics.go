//go:build !kueue_v0_16

// This file builds against every Kueue release but v0.16, whose
// Configuration has no LocalQueue metrics setting: there the
// LocalQueueMetrics feature gate (alpha, off by default) alone turns them
// on, and kueue_v016.go leaves it as the Configuration sets it.

package kueuesetup

import (
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
)

// Kueue's LocalQueue metrics (feature gate LocalQueueMetrics, beta and on
// in v0.17; configuration metrics.localQueueMetrics) keep a pending-workloads
// gauge per LocalQueue. Kueue's queue manager recomputes it by walking
// every pending workload of the LocalQueue's ClusterQueue, building a key
// string for each, whenever a workload of that ClusterQueue is requeued
// and for every head a scheduling cycle takes. In a replayed overload that
// is quadratic: in the 15k baseline, where Kueue runs 1.8 scheduling cycles
// per workload over a backlog of thousands, the recount
// (reportLQPendingWorkloads → ClusterQueue.PendingInLocalQueue) was 47% of
// the sim process's CPU, and it runs on Kueue's scheduler goroutine, which
// each step waits for (docs/performance.md, "Kueue's LocalQueue metrics").
//
// kueue-sim serves no Kueue metrics endpoint (Metrics), and nothing it
// reports reads a LocalQueue metric: the settle reads Kueue's
// ClusterQueue-level gauges and counters only. Kueue reads these
// settings for nothing but metrics (its queue manager, scheduler cache
// and LocalQueue controller only skip reporting when they are off). So
// Setup turns them off, whatever a scenario's Kueue configuration says:
// what Kueue decides does not change, and no output loses anything.

// withoutLocalQueueMetrics returns a copy of cfg with Kueue's LocalQueue
// metrics off (see above); cfg itself is not changed.
func withoutLocalQueueMetrics(cfg *configapi.Configuration) *configapi.Configuration {
	out := *cfg
	out.Metrics.LocalQueueMetrics = &configapi.LocalQueueMetrics{Enable: false}
	return &out
}
