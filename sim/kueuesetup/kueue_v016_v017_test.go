//go:build !kueue_v0_18 && !kueue_v0_19

// This file builds against Kueue v0.16 and v0.17 (-tags kueue_v0_16 with
// hack/kueue/v0.16.2.mod, and the module's go.mod); its twins,
// kueue_v018_test.go and kueue_v019_test.go, against Kueue v0.18 and v0.19:
// the releases' schedulers record events through different client-go
// event APIs, their queue managers hand out and take back heads as
// different types, and they decide waitForPodsReady differently
// (waitForPodsReadyCases).

package kueuesetup

import (
	"context"

	"k8s.io/client-go/tools/record"
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
	events := record.NewFakeRecorder(n)
	return scheduler.New(queues, cCache, c, events), events.Events
}

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

// waitForPodsReadyCases are how Kueue v0.16 and v0.17 decide
// waitForPodsReady: on only when the Configuration sets it.
var waitForPodsReadyCases = []struct {
	body string
	want kueuerelease.WaitForPodsReady
}{
	{"", kueuerelease.WaitForPodsReady{}},
	{"waitForPodsReady:\n  timeout: 10m\n", kueuerelease.WaitForPodsReady{Enabled: true, Timeout: "10m0s"}},
}
