package engine

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/constants"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// observer turns what Kueue and kube-scheduler do to the scenario's
// workloads into events stamped with simulated time. Informer handlers feed
// it; the engine drains it once a step has settled.
type observer struct {
	clock   *VirtualClock
	cache   client.Reader
	flavors map[string]map[string]string // flavor → node labels

	// decisions counts the events other than Pending and Arrived: Kueue's
	// progress, for the settler (see kueueTrying).
	decisions atomic.Int64

	mu        sync.Mutex
	buf       []record.Event
	workloads map[string]*wlState // namespace/name of the submitted object
	// dirty are the workloads whose state changed since the engine last
	// looked: a step's work is proportional to what changed, not to every
	// workload of the run.
	dirty map[string]*wlState
	// evicted receives raw Workloads whose eviction the engine completes.
	evicted func(client.ObjectKey)
}

// wlState is the engine's view of one submitted workload.
type wlState struct {
	arrival      Arrival
	key          string
	clusterQueue string
	domain       string
	refused      bool
	admitted     bool
	finished     bool
	deleted      bool
	wlCreated    time.Time // wall time Kueue's Workload was created
	admission    *kueue.Admission
	runningPods  map[string]bool
	running      bool
	generation   int
	lastPending  string
	// pending is whether the engine counted it as pending.
	pending bool
	// pruned: its object was deleted after it finished (see prune.go).
	pruned bool
}

func newObserver(clock *VirtualClock, c client.Reader, s *scenarios.Scenario) *observer {
	o := &observer{clock: clock, cache: c, flavors: map[string]map[string]string{}, workloads: map[string]*wlState{}, dirty: map[string]*wlState{}}
	for _, f := range s.Queues.ResourceFlavors {
		o.flavors[f.Name] = f.NodeLabels
	}
	return o
}

// watch registers the informer handlers.
func (o *observer) watch(ctx context.Context, c cache.Cache) error {
	wi, err := c.GetInformer(ctx, &kueue.Workload{})
	if err != nil {
		return fmt.Errorf("watching Workloads: %w", err)
	}
	if _, err := wi.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { o.onWorkload(nil, obj) },
		UpdateFunc: func(old, obj any) { o.onWorkload(old, obj) },
	}); err != nil {
		return fmt.Errorf("watching Workloads: %w", err)
	}
	pi, err := c.GetInformer(ctx, &corev1.Pod{})
	if err != nil {
		return fmt.Errorf("watching pods: %w", err)
	}
	if _, err := pi.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { o.onPod(nil, obj) },
		UpdateFunc: func(old, obj any) { o.onPod(old, obj) },
		DeleteFunc: func(obj any) { o.onPodDeleted(obj) },
	}); err != nil {
		return fmt.Errorf("watching pods: %w", err)
	}
	return nil
}

// track registers a submitted workload.
func (o *observer) track(a Arrival, key, clusterQueue, domain string) *wlState {
	o.mu.Lock()
	defer o.mu.Unlock()
	st := &wlState{arrival: a, key: key, clusterQueue: clusterQueue, domain: domain, runningPods: map[string]bool{}}
	o.workloads[key] = st
	o.dirty[key] = st
	return st
}

// touch marks a workload's state changed; the caller holds mu.
func (o *observer) touch(st *wlState) { o.dirty[st.key] = st }

// takeDirty returns the changed workloads in key order and forgets them;
// the caller holds mu.
func (o *observer) takeDirty() []*wlState {
	keys := make([]string, 0, len(o.dirty))
	for k := range o.dirty {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*wlState, len(keys))
	for i, k := range keys {
		out[i] = o.dirty[k]
	}
	clear(o.dirty)
	return out
}

func (o *observer) state(ns string, labels map[string]string) *wlState {
	name := labels[WorkloadLabel]
	if name == "" {
		return nil
	}
	return o.workloads[ns+"/"+name]
}

// workloadState finds the submitted workload a Kueue Workload belongs to:
// by the label Kueue copied from the job, or, for the Workloads Kueue makes
// for StatefulSets and pods (Notebooks, InferenceServices), which copy no
// labels, by the labels of its owner.
func (o *observer) workloadState(wl *kueue.Workload) *wlState {
	if st := o.state(wl.Namespace, wl.Labels); st != nil {
		return st
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
		if err := o.cache.Get(context.Background(), types.NamespacedName{Namespace: wl.Namespace, Name: ref.Name}, owner); err != nil {
			continue
		}
		if st := o.state(wl.Namespace, owner.GetLabels()); st != nil {
			return st
		}
	}
	return nil
}

func (o *observer) emit(st *wlState, e record.Event) {
	e.T = record.Duration(o.clock.Elapsed())
	now := time.Now()
	e.Wall = &now
	e.Workload, e.Stream, e.Team, e.Kind = st.key, st.arrival.Stream.Name, st.arrival.Team.Name, string(st.arrival.Stream.Kind)
	o.buf = append(o.buf, e)
	if e.Type != record.TypePending && e.Type != record.TypeArrived {
		o.decisions.Add(1)
	}
}

func (o *observer) onWorkload(oldObj, obj any) {
	wl, ok := obj.(*kueue.Workload)
	if !ok {
		return
	}
	var old *kueue.Workload
	if oldObj != nil {
		old, _ = oldObj.(*kueue.Workload)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	st := o.workloadState(wl)
	if st == nil {
		return
	}
	o.touch(st)
	if st.wlCreated.IsZero() {
		st.wlCreated = wl.CreationTimestamp.Time
	}
	became := func(t string) (*metav1.Condition, bool) {
		c := apimeta.FindStatusCondition(wl.Status.Conditions, t)
		if c == nil || c.Status != metav1.ConditionTrue {
			return c, false
		}
		return c, old == nil || !apimeta.IsStatusConditionTrue(old.Status.Conditions, t)
	}
	if _, ok := became(kueue.WorkloadAdmitted); ok && wl.Status.Admission != nil {
		st.admitted, st.admission = true, wl.Status.Admission.DeepCopy()
		flavors, usage := admissionUsage(wl.Status.Admission)
		o.emit(st, record.Event{Type: record.TypeAdmitted, ClusterQueue: string(wl.Status.Admission.ClusterQueue), Flavors: flavors, Usage: usage})
	}
	if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted) {
		st.admitted = false
	}
	if c, ok := became(kueue.WorkloadPreempted); ok {
		o.emit(st, record.Event{Type: record.TypePreempted, Reason: c.Reason, Message: c.Message})
	}
	if c, ok := became(kueue.WorkloadEvicted); ok && c.Reason != kueue.WorkloadEvictedByPreemption {
		o.emit(st, record.Event{Type: record.TypeEvicted, Reason: c.Reason, Message: c.Message})
	}
	if o.evicted != nil && st.arrival.Stream.Kind == scenarios.KindWorkload && needsEvictionDone(wl) {
		o.evicted(client.ObjectKeyFromObject(wl))
	}
	if c, ok := became(kueue.WorkloadFinished); ok {
		st.finished = true
		o.emit(st, record.Event{Type: record.TypeFinished, Reason: c.Reason, Message: c.Message})
	}
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved); c != nil &&
		c.Status == metav1.ConditionFalse && c.Message != "" && c.Message != st.lastPending {
		st.lastPending = c.Message
		o.emit(st, record.Event{Type: record.TypePending, Reason: c.Reason, Message: c.Message})
	}
}

func (o *observer) onPod(oldObj, obj any) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	var old *corev1.Pod
	if oldObj != nil {
		old, _ = oldObj.(*corev1.Pod)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	st := o.state(pod.Namespace, pod.Labels)
	if st == nil {
		return
	}
	o.touch(st)
	if pod.Spec.NodeName != "" && (old == nil || old.Spec.NodeName == "") {
		o.emit(st, o.placement(st, pod))
	}
	if pod.Status.Phase == corev1.PodRunning && pod.DeletionTimestamp == nil {
		st.runningPods[pod.Name] = true
	} else {
		delete(st.runningPods, pod.Name)
	}
}

func (o *observer) onPodDeleted(obj any) {
	if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if st := o.state(pod.Namespace, pod.Labels); st != nil {
		o.touch(st)
		delete(st.runningPods, pod.Name)
	}
}

// placement describes a bound pod, and whether its node carries the labels
// of the flavors Kueue assigned to its pod set.
func (o *observer) placement(st *wlState, pod *corev1.Pod) record.Event {
	e := record.Event{Type: record.TypePlaced, Pod: pod.Name, Node: pod.Spec.NodeName}
	var node corev1.Node
	if err := o.cache.Get(context.Background(), types.NamespacedName{Name: pod.Spec.NodeName}, &node); err != nil {
		e.Message = "node not found: " + err.Error()
		return e
	}
	e.Pool = node.Labels[nodes.PoolLabel]
	if st.admission == nil {
		return e
	}
	psa := podSetOf(st.admission, pod.Labels[constants.PodSetLabel])
	if psa == nil {
		return e
	}
	match := true
	for _, fl := range sortedFlavors(psa.Flavors) {
		for k, v := range o.flavors[fl] {
			if node.Labels[k] != v {
				match = false
				e.Message = fmt.Sprintf("flavor %s needs %s=%s, node has %q", fl, k, v, node.Labels[k])
			}
		}
	}
	e.FlavorMatch = &match
	return e
}

func podSetOf(a *kueue.Admission, name string) *kueue.PodSetAssignment {
	if len(a.PodSetAssignments) == 1 {
		return &a.PodSetAssignments[0]
	}
	for i := range a.PodSetAssignments {
		if string(a.PodSetAssignments[i].Name) == name {
			return &a.PodSetAssignments[i]
		}
	}
	return nil
}

func sortedFlavors(m map[corev1.ResourceName]kueue.ResourceFlavorReference) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range m {
		if !seen[string(f)] {
			seen[string(f)] = true
			out = append(out, string(f))
		}
	}
	sort.Strings(out)
	return out
}

// admissionUsage sums an admission's resource usage per flavor.
func admissionUsage(a *kueue.Admission) (map[string]string, map[string]map[string]float64) {
	flavors := map[string]string{}
	usage := map[string]map[string]float64{}
	for _, ps := range a.PodSetAssignments {
		for r, f := range ps.Flavors {
			flavors[string(r)] = string(f)
			q, ok := ps.ResourceUsage[r]
			if !ok {
				continue
			}
			if usage[string(f)] == nil {
				usage[string(f)] = map[string]float64{}
			}
			usage[string(f)][string(r)] += q.AsApproximateFloat64()
		}
	}
	return flavors, usage
}
