package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// QueueOrder makes Kueue see every Workload as created at its workload's
// simulated arrival.
//
// Kueue orders pending workloads of equal priority by their Workload's
// creationTimestamp, then by UID (random). kube-apiserver stamps creation
// in wall-clock time with one-second resolution, so on a virtual clock
// every arrival of a wall second would tie and be ordered at random.
// QueueOrder's Transform runs in the manager's informer cache, before Kueue
// (or anything else in the process) sees a Workload: it sets the
// Workload's creationTimestamp to Epoch + the arrival's simulated time + the
// arrival's position among the arrivals of that instant, in nanoseconds.
// kube-apiserver keeps the stored creationTimestamp on every update, so
// nothing of this is written back. Workloads the engine did not submit
// (another run's, or one whose owner the cache does not hold yet) get the
// simulated time they were first seen at.
//
// kube-apiserver also keeps condition times to the second, and Kueue orders
// preemption candidates by when they reserved quota (the QuotaReserved
// condition) and requeues a workload preempted while borrowing at its
// Preempted condition's time. On a virtual clock whose instants are
// milliseconds apart those would tie, and Kueue breaks such ties by random
// UID. The transform therefore shows each condition at the simulated
// instant it was first seen at, if that is the second the API stored, plus
// the workload's place in the run's arrivals in nanoseconds: later arrivals
// count as later among those admitted at one instant. Kueue's own
// tie-break (UID) is arbitrary by its own account; this one is
// reproducible.
type QueueOrder struct {
	clock *VirtualClock
	// owners finds the StatefulSet or pod a Workload belongs to (set once
	// the manager's cache exists; nil before).
	owners atomic.Pointer[client.Reader]

	mu       sync.Mutex
	arrivals map[string]arrivalTime    // namespace/name of a submitted object → its creation time
	byUID    map[types.UID]arrivalTime // the time each Workload was given: it never changes
	unknown  int64                     // Workloads of no arrival so far
	// conditions holds, per Workload and condition type, the stored
	// condition a precise time was given for, and that time.
	conditions map[conditionKey]conditionTime
}

// arrivalTime is a Workload's creation time and its place in the run's
// arrivals.
type arrivalTime struct {
	at  time.Time
	seq int64
}

type conditionKey struct {
	uid types.UID
	typ string
}

type conditionTime struct {
	status metav1.ConditionStatus
	stored time.Time // as kube-apiserver keeps it (whole seconds)
	shown  time.Time
}

// NewQueueOrder returns a QueueOrder on clock's simulated time.
func NewQueueOrder(clock *VirtualClock) *QueueOrder {
	return &QueueOrder{clock: clock, arrivals: map[string]arrivalTime{}, byUID: map[types.UID]arrivalTime{}, conditions: map[conditionKey]conditionTime{}}
}

// setOwners gives the transform the reader it finds owners with.
func (q *QueueOrder) setOwners(r client.Reader) { q.owners.Store(&r) }

// arrive notes the creation time of the submitted object key
// (namespace/name): the arrival's simulated time plus its position among
// the instant's arrivals; seq is its place among all the run's arrivals.
func (q *QueueOrder) arrive(key string, at time.Duration, position int, seq int64) {
	q.mu.Lock()
	q.arrivals[key] = arrivalTime{at: Epoch.Add(at + time.Duration(position)), seq: seq}
	q.mu.Unlock()
}

// Transform is the informer transform for Workloads (see the type).
func (q *QueueOrder) Transform(obj any) (any, error) {
	wl, ok := obj.(*kueue.Workload)
	if !ok {
		return obj, nil
	}
	q.mu.Lock()
	t, known := q.byUID[wl.UID]
	q.mu.Unlock()
	if !known {
		t = q.creationTime(wl)
	}
	wl.CreationTimestamp.Time = t.at
	q.conditionTimes(wl, t.seq)
	return wl, nil
}

// conditionTimes shows each of wl's conditions at the simulated instant it
// was first seen at (plus seq nanoseconds), when kube-apiserver stored it
// in that instant's second; otherwise as stored.
func (q *QueueOrder) conditionTimes(wl *kueue.Workload, seq int64) {
	if wl.UID == "" || len(wl.Status.Conditions) == 0 {
		return
	}
	now := q.clock.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := range wl.Status.Conditions {
		c := &wl.Status.Conditions[i]
		k := conditionKey{wl.UID, c.Type}
		stored := c.LastTransitionTime.Time
		seen, ok := q.conditions[k]
		if !ok || seen.status != c.Status || !seen.stored.Equal(stored) {
			seen = conditionTime{status: c.Status, stored: stored, shown: stored}
			if stored.Equal(now.Truncate(time.Second)) {
				seen.shown = now.Add(time.Duration(seq))
			}
			q.conditions[k] = seen
		}
		c.LastTransitionTime.Time = seen.shown
	}
}

// creationTime finds and remembers the time a Workload is given.
func (q *QueueOrder) creationTime(wl *kueue.Workload) arrivalTime {
	var reader client.Reader
	if r := q.owners.Load(); r != nil {
		reader = *r
	}
	key := arrivalKey(context.Background(), reader, wl)
	q.mu.Lock()
	defer q.mu.Unlock()
	if t, ok := q.byUID[wl.UID]; ok {
		return t
	}
	t, ok := q.arrivals[key]
	if !ok {
		t = arrivalTime{at: q.clock.Now().Add(time.Duration(q.unknown))}
		q.unknown++
	}
	if wl.UID != "" {
		q.byUID[wl.UID] = t
	}
	return t
}

// arrivalKey is the namespace/name of the submitted object a Kueue
// Workload belongs to: by the label Kueue copied from the job (or the
// engine set on a raw Workload), or, for the Workloads Kueue makes for
// StatefulSets and pods (Notebooks, InferenceServices), which copy no
// labels, by the label of its owner. "" when neither says.
func arrivalKey(ctx context.Context, reader client.Reader, wl *kueue.Workload) string {
	if name := wl.Labels[WorkloadLabel]; name != "" {
		return wl.Namespace + "/" + name
	}
	if reader == nil {
		return ""
	}
	for _, ref := range wl.OwnerReferences {
		var owner client.Object
		switch ref.Kind {
		case "StatefulSet":
			owner = &appsv1.StatefulSet{}
		case "Pod":
			owner = &corev1.Pod{}
		default:
			continue
		}
		if err := reader.Get(ctx, types.NamespacedName{Namespace: wl.Namespace, Name: ref.Name}, owner); err != nil {
			continue
		}
		if name := owner.GetLabels()[WorkloadLabel]; name != "" {
			return wl.Namespace + "/" + name
		}
	}
	return ""
}
