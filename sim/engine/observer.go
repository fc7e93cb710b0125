package engine

import (
	"context"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// observer turns what Kueue and kube-scheduler do to the scenario's
// workloads into events stamped with simulated time. Informer handlers only
// queue what they saw (inbox); the engine's loop drains the inbox (drain)
// and owns every wlState, the event buffer and the dirty set: nothing here
// is shared with another goroutine.
type observer struct {
	clock   *VirtualClock
	cache   client.Reader
	flavors map[string]map[string]string // flavor → node labels
	inbox   inbox

	// decisions counts the events other than Pending and Arrived: Kueue's
	// progress, for the settle's retry rule (settle.Config.Progress).
	decisions int64

	buf       []record.Event
	workloads map[string]*wlState // namespace/name of the submitted object
	// dirty are the workloads whose state changed since the engine last
	// looked: a step's work is proportional to what changed, not to every
	// workload of the run.
	dirty map[string]*wlState
	// evicted receives raw Workloads whose eviction the engine completes.
	evicted func(client.ObjectKey)
	// reserved counts the quota reservations the API shows; observed
	// counts the observations drained.
	reserved *reservations
	observed int64
}

// wlState is the engine's view of one submitted workload.
type wlState struct {
	arrival      Arrival
	key          string
	clusterQueue string
	refused      bool
	admitted     bool
	finished     bool
	deleted      bool
	// workload is the name of Kueue's Workload for it, once seen.
	workload    string
	admission   *kueue.Admission
	runningPods map[string]bool
	running     bool
	generation  int
	// admissions counts Kueue's admissions of it seen so far; runAdmission
	// is the admission its current run started under. A step can hold an
	// eviction and the re-admission that follows it (the settle runs them
	// all before the step's observations are drained): a run under an
	// earlier admission has ended even though the workload runs again.
	admissions   int
	runAdmission int
	lastPending  string
	// pending is whether the engine counted it as pending.
	pending bool
	// pruned: its object was deleted after it finished (see prune.go).
	pruned bool
}

func newObserver(clock *VirtualClock, c client.Reader, s *scenarios.Scenario) *observer {
	o := &observer{clock: clock, cache: c, flavors: map[string]map[string]string{}, workloads: map[string]*wlState{}, dirty: map[string]*wlState{},
		reserved: newReservations()}
	for _, f := range s.FlavorNodeLabels() {
		if _, dup := o.flavors[f.Name]; !dup {
			o.flavors[f.Name] = f.Value
		}
	}
	return o
}

// watch registers the informer handlers: each queues what it saw.
func (o *observer) watch(ctx context.Context, c cache.Cache, seen *settle.SeenMarks, resourceOf func(client.Object) (string, error)) error {
	for _, w := range []struct {
		obj  client.Object
		what string
	}{{&kueue.Workload{}, "Workloads"}, {&corev1.Pod{}, "pods"}} {
		inf, err := c.GetInformer(ctx, w.obj)
		if err != nil {
			return fmt.Errorf("watching %s: %w", w.what, err)
		}
		// The settle's "every write delivered" check (settle.SeenMarks) reads
		// these kinds' marks from this handler: an informer hands each
		// handler its events on the handler's own goroutine, and a mark
		// set by another handler could run ahead of the inbox, so a step
		// could end before its last observation reached the loop and the
		// next instant would record it.
		mark := func(any) {}
		if seen != nil {
			res, err := resourceOf(w.obj)
			if err != nil {
				return err
			}
			seen.MarkedBy(res)
			mark = func(obj any) { seen.Mark(res, obj) }
		}
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { o.inbox.add(observation{obj: obj}); mark(obj) },
			UpdateFunc: func(old, obj any) { o.inbox.add(observation{old: old, obj: obj}); mark(obj) },
			DeleteFunc: func(obj any) { o.inbox.add(observation{obj: obj, deleted: true}); mark(obj) },
		}); err != nil {
			return fmt.Errorf("watching %s: %w", w.what, err)
		}
	}
	return nil
}

// drain applies every queued observation, in the order they were seen.
func (o *observer) drain() {
	for _, ob := range o.inbox.take() {
		o.observed++
		obj := ob.obj
		if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		switch x := obj.(type) {
		case *kueue.Workload:
			o.reserved.observe(x, ob.deleted)
			if !ob.deleted {
				old, _ := ob.old.(*kueue.Workload)
				o.onWorkload(old, x)
			}
		case *corev1.Pod:
			if ob.deleted {
				o.onPodDeleted(x)
			} else {
				old, _ := ob.old.(*corev1.Pod)
				o.onPod(old, x)
			}
		}
	}
}

// track registers a submitted workload.
func (o *observer) track(a Arrival, key, clusterQueue string) *wlState {
	st := &wlState{arrival: a, key: key, clusterQueue: clusterQueue, runningPods: map[string]bool{}}
	o.workloads[key] = st
	o.dirty[key] = st
	return st
}

// touch marks a workload's state changed.
func (o *observer) touch(st *wlState) { o.dirty[st.key] = st }

// takeDirty returns the changed workloads in key order and forgets them.
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

// workloadState finds the submitted workload a Kueue Workload belongs to
// (see arrivalKey).
func (o *observer) workloadState(wl *kueue.Workload) *wlState {
	return o.workloads[arrivalKey(context.Background(), o.cache, wl)]
}

func (o *observer) emit(st *wlState, e record.Event) {
	e.T = record.Duration(o.clock.Elapsed())
	now := time.Now()
	e.Wall = &now
	e.Workload, e.Stream, e.Team, e.Kind = st.key, st.arrival.Stream.Name, st.arrival.Team.Name, string(st.arrival.Stream.Kind)
	o.buf = append(o.buf, e)
	if e.Type != record.TypePending && e.Type != record.TypeArrived {
		o.decisions++
	}
}

func (o *observer) onWorkload(old, wl *kueue.Workload) {
	st := o.workloadState(wl)
	if st == nil {
		return
	}
	o.touch(st)
	st.workload = wl.Name
	became := func(t string) (*metav1.Condition, bool) {
		c := apimeta.FindStatusCondition(wl.Status.Conditions, t)
		if c == nil || c.Status != metav1.ConditionTrue {
			return c, false
		}
		return c, old == nil || !apimeta.IsStatusConditionTrue(old.Status.Conditions, t)
	}
	if _, ok := became(kueue.WorkloadAdmitted); ok && wl.Status.Admission != nil {
		st.admitted, st.admission = true, wl.Status.Admission.DeepCopy()
		st.admissions++
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
	if k, ok := kindOf(st.arrival.Stream.Kind).(kindWithEviction); ok && o.evicted != nil && k.evictionPending(wl) {
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

func (o *observer) onPod(old, pod *corev1.Pod) {
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

func (o *observer) onPodDeleted(pod *corev1.Pod) {
	if st := o.state(pod.Namespace, pod.Labels); st != nil {
		o.touch(st)
		delete(st.runningPods, pod.Name)
	}
}
