//go:build kueue_v0_17

// This file builds against Kueue v0.17 (-tags kueue_v0_17 with
// hack/kueue/v0.17.1.mod). Its twins build against the other releases:
// kueue_v016.go against Kueue v0.16 (-tags kueue_v0_16 with
// hack/kueue/v0.16.2.mod), kueue_v018.go against Kueue v0.18 (-tags
// kueue_v0_18 with hack/kueue/v0.18.2.mod), kueue_v019.go against Kueue
// v0.19 (the module's go.mod). What v0.17 shares with v0.16 is in
// kueue_v016_v017.go, what it shares with v0.18 and v0.19 in
// kueue_not_v016.go. The releases wire their setup differently (feature gates, core controllers,
// the scheduler's event recorder, the queue manager's lookups), and each
// file does it as that release's cmd/kueue does.

package kueuesetup

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/util/expectations"
)

// release holds what this Kueue release's setup shares between its steps:
// nothing in v0.17.
type release struct{}

// newRelease returns this release's shared setup state and the options it
// adds to Kueue's scheduler cache and queue manager: none in v0.17.
func newRelease(context.Context, ctrl.Manager, *configapi.Configuration) (*release, []schdcache.Option, []qcache.Option, error) {
	return &release{}, nil, nil, nil
}

// setupCoreControllers sets up Kueue's core controllers; it returns the
// name of the one that failed.
func (*release) setupCoreControllers(mgr ctrl.Manager, queues *qcache.Manager, cCache *schdcache.Cache, cfg *configapi.Configuration, preemption *expectations.Store) (string, error) {
	return core.SetupControllers(mgr, queues, cCache, cfg, nil, preemption, nil)
}
