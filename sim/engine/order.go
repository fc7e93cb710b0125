package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
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
type QueueOrder struct {
	clock *VirtualClock
	// owners finds the StatefulSet or pod a Workload belongs to (set once
	// the manager's cache exists; nil before).
	owners atomic.Pointer[client.Reader]

	mu       sync.Mutex
	arrivals map[string]time.Time    // namespace/name of a submitted object → its creation time
	byUID    map[types.UID]time.Time // the time each Workload was given: it never changes
	unknown  int64                   // Workloads of no arrival so far
}

// NewQueueOrder returns a QueueOrder on clock's simulated time.
func NewQueueOrder(clock *VirtualClock) *QueueOrder {
	return &QueueOrder{clock: clock, arrivals: map[string]time.Time{}, byUID: map[types.UID]time.Time{}}
}

// setOwners gives the transform the reader it finds owners with.
func (q *QueueOrder) setOwners(r client.Reader) { q.owners.Store(&r) }

// arrive notes the creation time of the submitted object key
// (namespace/name): the arrival's simulated time plus its position among
// the instant's arrivals.
func (q *QueueOrder) arrive(key string, at time.Duration, position int) {
	q.mu.Lock()
	q.arrivals[key] = Epoch.Add(at + time.Duration(position))
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
	wl.CreationTimestamp.Time = t
	return wl, nil
}

// creationTime finds and remembers the time a Workload is given.
func (q *QueueOrder) creationTime(wl *kueue.Workload) time.Time {
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
		t = q.clock.Now().Add(time.Duration(q.unknown))
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
