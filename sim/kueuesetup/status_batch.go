package kueuesetup

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/kueue/pkg/constants"
)

// Kueue writes ClusterQueue and LocalQueue status in batches: a
// workload's change queues its queue's reconcile a second later
// (constants.UpdatesBatchPeriod, through the controller's work queue), so
// a busy queue writes its status about once a second. (Kueue v0.17's
// Cohort controller queues at once; its queue is wrapped too, in case a
// later Kueue batches it, and meanwhile the wrapper changes nothing.) The work queue
// counts that second on the wall clock. A replay that compresses 6
// simulated seconds into 45 wall seconds then makes Kueue write every
// queue's status 45 times instead of 6: in a 1k baseline replay those
// writes were 40% of all API writes (1,767 LocalQueue and 1,538
// ClusterQueue status updates against 4,885 Workload writes), work for
// kube-apiserver that grows with wall time, not with the scenario.
//
// Kueue offers no clock for these queues, and controller-runtime builds a
// controller's queue from the controller's options, which Kueue fixes. So
// Setup hands Kueue a manager whose Add gives the status controllers
// a queue that counts the batch second (an AddAfter of exactly
// constants.UpdatesBatchPeriod) in simulated time. Everything else about
// the queue stays controller-runtime's: immediate adds, the rate-limited
// retries after an error, other delays (the LocalQueue reconciler's
// RequeueAfter for admission fair sharing, which it computes from a wall
// clock Kueue gives no option for), the workers. Status is output:
// Kueue's scheduler decides from its own caches, never from these
// objects, and the settle does not wait for these controllers
// (engine.statusControllers).

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

// statusBatchManager is the manager Kueue's core controllers are set up
// on: it passes everything through to the real one, and on Add gives the
// status controllers their simulated-time queue.
type statusBatchManager struct {
	ctrl.Manager
	timers  SimulatedTimers // nil: status batching stays on wall time
	clock   clock.Clock     // the Workload and LocalQueue reconcilers', with wakes
	wakes   InstantTimers   // nil: the Workload and LocalQueue reconcilers stay on wall time (workload_timers.go)
	wrapped map[string]bool // the controllers given a simulated-time queue
}

func newStatusBatchManager(m ctrl.Manager, timers SimulatedTimers, c clock.Clock, wakes InstantTimers) statusBatchManager {
	return statusBatchManager{Manager: m, timers: timers, clock: c, wakes: wakes, wrapped: map[string]bool{}}
}

func (m statusBatchManager) Add(r manager.Runnable) error {
	if m.wakes != nil {
		// First, so that the status batching's queue wraps this one and
		// takes the batch period before it.
		name, err := simulateReconcilerTimers(r, m.clock, m.wakes)
		if err != nil {
			return err
		}
		if name != "" {
			m.wrapped["clocked "+name] = true
		}
	}
	if m.timers != nil {
		name, err := simulateQueueDelays(r, m.timers)
		if err != nil {
			return err
		}
		if name != "" {
			m.wrapped[name] = true
		}
	}
	return m.Manager.Add(r)
}

// checkWrapped fails if a status controller every Kueue sets up went by
// without its queue wrapped: controller-runtime's controller changed
// shape, and the batching would silently stay on wall time.
func (m statusBatchManager) checkWrapped() error {
	var missing []string
	for name, required := range statusBatchControllers {
		if m.timers != nil && required && !m.wrapped[name] {
			missing = append(missing, name)
		}
	}
	for name := range clockedReconcilers {
		if m.wakes != nil && !m.wrapped["clocked "+name] {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("putting Kueue's controllers on simulated time: no controller named %s was added with a Name and NewQueue field kueue-sim recognises (update sim/kueuesetup/status_batch.go or workload_timers.go for this controller-runtime)", strings.Join(missing, ", "))
}

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
