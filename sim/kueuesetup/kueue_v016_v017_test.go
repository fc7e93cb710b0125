//go:build kueue_v0_16 || kueue_v0_17

// This file builds against Kueue v0.16 and v0.17, whose schedulers record
// events through client-go's core/v1 recorder; kueue_v018_v019_test.go
// builds against v0.18 and v0.19, whose schedulers record through
// events.k8s.io.

package kueuesetup

import (
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/scheduler"
)

// newTestScheduler builds Kueue's scheduler with a fake event recorder
// holding up to n events; it returns the channel the events arrive on.
func newTestScheduler(queues *qcache.Manager, cCache *schdcache.Cache, c client.Client, n int) (*scheduler.Scheduler, <-chan string) {
	events := record.NewFakeRecorder(n)
	return scheduler.New(queues, cCache, c, events), events.Events
}
