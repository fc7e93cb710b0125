package engine

import (
	"context"
	"fmt"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// busyIndex keeps, from informer events, the objects that kube-scheduler or
// kube-controller-manager still owe work: pods terminating, waiting for
// kube-scheduler or for the kubelet, Jobs whose pods are not yet created,
// deleted or counted, and apps objects being reconciled. A settle check
// then costs as much as the objects that changed, not as all pods.
type busyIndex struct {
	mu   sync.Mutex
	busy map[string]string // "pod ns/name", "job ns/name", ... → what is going on
	// Per Job (ns/name): its latest object and its pods, each with whether
	// it ended.
	jobs    map[string]*batchv1.Job
	jobPods map[string]map[string]bool
	podJob  map[string]string // pod ns/name → job ns/name
	// held are the pods that only InstantGate keeps from kube-scheduler
	// (hold.go), by ns/name: not busy, but the settle releases them once
	// the control plane is quiet.
	held map[string]heldPod
}

func newBusyIndex() *busyIndex {
	return &busyIndex{busy: map[string]string{}, jobs: map[string]*batchv1.Job{},
		jobPods: map[string]map[string]bool{}, podJob: map[string]string{}, held: map[string]heldPod{}}
}

// watch registers the index's handlers on the cache's informers.
func (x *busyIndex) watch(ctx context.Context, c cache.Cache) error {
	for _, w := range []struct {
		obj    client.Object
		update func(obj any)
		remove func(obj any)
	}{
		{&corev1.Pod{}, x.onPod, x.onPodDeleted},
		{&batchv1.Job{}, x.onJob, x.onJobDeleted},
		{&appsv1.StatefulSet{}, x.onApps, x.onAppsDeleted},
		{&appsv1.ReplicaSet{}, x.onApps, x.onAppsDeleted},
		{&appsv1.Deployment{}, x.onApps, x.onAppsDeleted},
	} {
		inf, err := c.GetInformer(ctx, w.obj)
		if err != nil {
			return fmt.Errorf("watching %T for settle checks: %w", w.obj, err)
		}
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { w.update(obj) },
			UpdateFunc: func(_, obj any) { w.update(obj) },
			DeleteFunc: func(obj any) {
				if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
					obj = d.Obj
				}
				w.remove(obj)
			},
		}); err != nil {
			return fmt.Errorf("watching %T for settle checks: %w", w.obj, err)
		}
	}
	return nil
}

// heldPods are the pods InstantGate alone holds, in no particular order.
func (x *busyIndex) heldPods() []heldPod {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]heldPod, 0, len(x.held))
	for _, p := range x.held {
		out = append(out, p)
	}
	return out
}

// first returns something still going on, or "".
func (x *busyIndex) first() string {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, why := range x.busy {
		return why
	}
	return ""
}

func (x *busyIndex) set(key, why string) {
	if why == "" {
		delete(x.busy, key)
	} else {
		x.busy[key] = why
	}
}

func (x *busyIndex) onPod(obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	key := p.Namespace + "/" + p.Name
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set("pod "+key, podBusy(p))
	if heldOnly(p) {
		x.held[key] = heldPodOf(p)
	} else {
		delete(x.held, key)
	}
	if job := p.Labels[batchv1.JobNameLabel]; job != "" {
		jk := p.Namespace + "/" + job
		x.podJob[key] = jk
		if x.jobPods[jk] == nil {
			x.jobPods[jk] = map[string]bool{}
		}
		x.jobPods[jk][key] = p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
		x.recheckJob(jk)
	}
}

func (x *busyIndex) onPodDeleted(obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	key := p.Namespace + "/" + p.Name
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set("pod "+key, "")
	delete(x.held, key)
	if jk, ok := x.podJob[key]; ok {
		delete(x.podJob, key)
		delete(x.jobPods[jk], key)
		if len(x.jobPods[jk]) == 0 {
			delete(x.jobPods, jk)
		}
		x.recheckJob(jk)
	}
}

// podBusy says what a pod waits for, or "".
func podBusy(p *corev1.Pod) string {
	name := "pod " + p.Namespace + "/" + p.Name
	switch {
	case p.DeletionTimestamp != nil:
		return name + " is terminating"
	case p.Spec.NodeName == "" && len(p.Spec.SchedulingGates) == 0 && !unschedulable(p):
		return name + " waits for kube-scheduler"
	case p.Spec.NodeName != "" && p.Status.Phase == corev1.PodPending:
		return name + " waits for the kubelet"
	}
	return ""
}

func (x *busyIndex) onJob(obj any) {
	j, ok := obj.(*batchv1.Job)
	if !ok {
		return
	}
	key := j.Namespace + "/" + j.Name
	x.mu.Lock()
	defer x.mu.Unlock()
	x.jobs[key] = j
	x.recheckJob(key)
}

func (x *busyIndex) onJobDeleted(obj any) {
	j, ok := obj.(*batchv1.Job)
	if !ok {
		return
	}
	key := j.Namespace + "/" + j.Name
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.jobs, key)
	x.set("job "+key, "")
}

// recheckJob recomputes a Job's state from its latest object and pods; the
// caller holds mu.
func (x *busyIndex) recheckJob(key string) {
	j := x.jobs[key]
	if j == nil {
		x.set("job "+key, "")
		return
	}
	active, terminal := map[string]int{}, map[string]int{}
	for _, ended := range x.jobPods[key] {
		if ended {
			terminal[key]++
		} else {
			active[key]++
		}
	}
	x.set("job "+key, jobBusy(j, active, terminal))
}

func (x *busyIndex) onApps(obj any) {
	key, why := appsBusy(obj)
	if key == "" {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set(key, why)
}

func (x *busyIndex) onAppsDeleted(obj any) {
	key, _ := appsBusy(obj)
	if key == "" {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set(key, "")
}

// appsBusy keys a StatefulSet, ReplicaSet or Deployment and says whether
// its controller is still reconciling it.
func appsBusy(obj any) (key, why string) {
	replicasBusy := func(kind, ns, name string, spec *int32, gen, observed int64, have int32) (string, string) {
		key := kind + " " + ns + "/" + name
		want := int32(1)
		if spec != nil {
			want = *spec
		}
		if observed < gen || have != want {
			return key, key + " is being reconciled"
		}
		return key, ""
	}
	switch o := obj.(type) {
	case *appsv1.StatefulSet:
		return replicasBusy("statefulset", o.Namespace, o.Name, o.Spec.Replicas, o.Generation, o.Status.ObservedGeneration, o.Status.Replicas)
	case *appsv1.ReplicaSet:
		return replicasBusy("replicaset", o.Namespace, o.Name, o.Spec.Replicas, o.Generation, o.Status.ObservedGeneration, o.Status.Replicas)
	case *appsv1.Deployment:
		key := "deployment " + o.Namespace + "/" + o.Name
		if o.Status.ObservedGeneration < o.Generation {
			return key, key + " is being reconciled"
		}
		return key, ""
	}
	return "", ""
}
