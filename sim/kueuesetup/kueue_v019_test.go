//go:build kueue_v0_19

// This file builds against Kueue v0.19 (-tags kueue_v0_19 with
// hack/kueue/v0.19.2.mod); its twins
// (kueue_v01x_test.go) build against the other releases, and
// kueue_v016_v017_test.go says what differs between them.

package kueuesetup

import (
	"context"

	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/scheduler"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// newTestScheduler builds Kueue's scheduler with a fake event recorder
// holding up to n events; it returns the channel the events arrive on.
func newTestScheduler(queues *qcache.Manager, cCache *schdcache.Cache, c client.Client, n int) (*scheduler.Scheduler, <-chan string) {
	rec := events.NewFakeRecorder(n)
	return scheduler.New(queues, cCache, c, rec), rec.Events
}

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
