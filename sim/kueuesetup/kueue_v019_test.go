//go:build !kueue_v0_16 && !kueue_v0_17 && !kueue_v0_18

// This file builds against Kueue v0.19 (the module's go.mod), whose queue manager hands out heads wrapping
// workload.Info and takes back a quota-reservation reason, and which turns
// waitForPodsReady on by default; kueue_not_v019_test.go builds against
// the other releases.

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
	m.RequeueWorkload(ctx, &heads[0].Info, qcache.RequeueReasonGeneric, qcache.QuotaReservedReasonGeneric)
	return heads[0].Obj, len(heads)
}

// waitForPodsReadyCases are how Kueue v0.19 decides waitForPodsReady: on
// by default with a 30-minute timeout, off with its DisableWaitForPodsReady
// gate.
var waitForPodsReadyCases = []struct {
	body string
	want kueuerelease.WaitForPodsReady
}{
	{"", kueuerelease.WaitForPodsReady{Enabled: true, Timeout: "30m0s"}},
	{"waitForPodsReady:\n  timeout: 10m\n", kueuerelease.WaitForPodsReady{Enabled: true, Timeout: "10m0s"}},
	{"featureGates:\n  DisableWaitForPodsReady: true\n", kueuerelease.WaitForPodsReady{}},
}
