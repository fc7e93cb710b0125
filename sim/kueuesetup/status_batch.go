package kueuesetup

import (
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/kueue/pkg/constants"
)

// Kueue writes ClusterQueue and LocalQueue status in batches: a
// workload's change queues its queue's reconcile a second later
// (constants.UpdatesBatchPeriod, through the controller's work queue), so
// a busy queue writes its status about once a second. (Kueue v0.17's
// Cohort controller queues at once; its queue is wrapped too, in case a
// later Kueue batches it, and meanwhile the wrapper changes nothing.)
// The work queue counts that second on the wall clock. A replay that
// compresses 6 simulated seconds into 45 wall seconds then makes Kueue
// write every queue's status 45 times instead of 6: in a 1k baseline replay those
// writes were 40% of all API writes (1,767 LocalQueue and 1,538
// ClusterQueue status updates against 4,885 Workload writes), work for
// kube-apiserver that grows with wall time, not with the scenario.
//
// Kueue offers no clock for these queues, and controller-runtime builds a
// controller's queue from the controller's options, which Kueue fixes. So
// Setup hands Kueue a manager (simulated_manager.go) whose Add gives the
// status controllers a queue that counts the batch second (an AddAfter of
// exactly constants.UpdatesBatchPeriod) in simulated time. Everything else
// about the queue stays as it was: immediate adds, the rate-limited
// retries after an error, other delays (the LocalQueue reconciler's
// RequeueAfter for admission fair sharing, which a replay also puts on
// simulated time: workload_timers.go), the workers. Status is output:
// Kueue's scheduler decides from its own caches, never from these
// objects, and the settle does not wait for these controllers
// (engine.statusOnly; under admission fair sharing it waits for the
// LocalQueue controller, whose usage orders admissions).

// SimulatedTimers run a function once simulated time has advanced by d
// (engine.VirtualClock.AfterSimulated).
type SimulatedTimers interface {
	AfterSimulated(d time.Duration, f func())
}

// WithSimulatedTimers counts Kueue's status batching in t's simulated time
// (see above).
func WithSimulatedTimers(t SimulatedTimers) Option { return func(o *options) { o.timers = t } }

// statusBatchControllers are the controllers whose delays go to simulated
// time: they only write queue status. Setup fails unless those marked true
// were found: every Kueue sets them up, and not finding them means
// controller-runtime's controller no longer looks as simulateQueueDelays
// expects.
var statusBatchControllers = map[string]bool{"clusterqueue_controller": true, "localqueue_controller": true, "cohort_controller": false}

// simulateQueueDelays wraps the NewQueue of r, when r is one of the status
// controllers, and returns that controller's name (controller_fields.go).
// If a controller-runtime upgrade moves NewQueue, this says so; if it
// moves Name, no controller is recognised
// and checkWrapped says so once Kueue's controllers are set up: either
// way the batching is not left on wall time unnoticed.
func simulateQueueDelays(r manager.Runnable, timers SimulatedTimers) (string, error) {
	ctl, name, ok := controllerOf(r)
	if !ok {
		return "", nil
	}
	if _, ok := statusBatchControllers[name]; !ok {
		return "", nil
	}
	err := wrapNewQueue(ctl, func(q queue) queue {
		return &simulatedDelayQueue{TypedRateLimitingInterface: q, timers: timers, waiting: map[reconcile.Request]bool{}}
	})
	if err != nil {
		return "", fmt.Errorf("counting Kueue's %s status batching in simulated time: %w (update sim/kueuesetup/status_batch.go)", name, err)
	}
	return name, nil
}

// simulatedDelayQueue is a controller's work queue whose AddAfter of the
// batch period waits for simulated time. Like client-go's delaying queue,
// an item already waiting keeps its earlier time.
type simulatedDelayQueue struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	timers SimulatedTimers

	mu      sync.Mutex
	waiting map[reconcile.Request]bool
}

func (q *simulatedDelayQueue) AddAfter(item reconcile.Request, d time.Duration) {
	if d != constants.UpdatesBatchPeriod {
		q.TypedRateLimitingInterface.AddAfter(item, d)
		return
	}
	q.mu.Lock()
	if q.waiting[item] {
		q.mu.Unlock()
		return
	}
	q.waiting[item] = true
	q.mu.Unlock()
	q.timers.AfterSimulated(d, func() {
		q.mu.Lock()
		delete(q.waiting, item)
		q.mu.Unlock()
		q.Add(item)
	})
}
