//go:build kueue_v0_16 || kueue_v0_17 || kueue_v0_18

// This file builds against Kueue v0.16, v0.17 and v0.18, whose queue
// managers hand out heads as workload.Info and which turn waitForPodsReady
// on only when the Configuration sets it; kueue_v019_test.go builds
// against v0.19, which does both differently.

package kueuesetup

import (
	"context"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// requeueFirstHead takes the heads of m's queues, as Kueue's scheduler
// does, and requeues the first as a workload the scheduler could not
// admit. It returns that workload and the number of heads taken.
func requeueFirstHead(ctx context.Context, m *qcache.Manager) (*kueue.Workload, int) {
	heads := m.Heads(ctx)
	if len(heads) == 0 {
		return nil, 0
	}
	m.RequeueWorkload(ctx, &heads[0], qcache.RequeueReasonGeneric)
	return heads[0].Obj, len(heads)
}

// waitForPodsReadyCases are how Kueue v0.16, v0.17 and v0.18
// decide waitForPodsReady: on only when the Configuration sets it.
var waitForPodsReadyCases = []struct {
	body string
	want kueuerelease.WaitForPodsReady
}{
	{"", kueuerelease.WaitForPodsReady{}},
	{"waitForPodsReady:\n  timeout: 10m\n", kueuerelease.WaitForPodsReady{Enabled: true, Timeout: "10m0s"}},
}
