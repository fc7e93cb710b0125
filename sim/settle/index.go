package settle

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

// Index keeps, from informer events, the objects that kube-scheduler or
// kube-controller-manager still owe work: pods terminating, waiting for
// kube-scheduler or for the kubelet, Jobs whose pods are not yet created,
// deleted or counted, and apps objects being reconciled. A settle check
// then costs as much as the objects that changed, not as all pods.
type Index struct {
	mu   sync.Mutex
	busy map[string]Busy // "pod ns/name", "job ns/name", ... → what is going on
	// Per Job (ns/name): its latest object and its pods, each with whether
	// it ended.
	jobs    map[string]*batchv1.Job
	jobPods map[string]map[string]jobPod
	podJob  map[string]string // pod ns/name → job ns/name
	// held are the pods that only the caller's gate keeps from
	// kube-scheduler (heldOnly), by ns/name: not busy, but the caller
	// releases them once the control plane is quiet (Config.Release).
	held     map[string]*corev1.Pod
	heldOnly func(*corev1.Pod) bool
}

// NewIndex makes an empty index. heldOnly tells whether a gate of the
// caller's is all that keeps a pod from kube-scheduler (nil: no pod is
// held); such a pod is not busy, and HeldPods lists it.
func NewIndex(heldOnly func(*corev1.Pod) bool) *Index {
	return &Index{busy: map[string]Busy{}, jobs: map[string]*batchv1.Job{},
		jobPods: map[string]map[string]jobPod{}, podJob: map[string]string{}, held: map[string]*corev1.Pod{}, heldOnly: heldOnly}
}

// Watch registers the index's handlers on the cache's informers.
func (x *Index) Watch(ctx context.Context, c cache.Cache) error {
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

// HeldPods are the pods the caller's gate alone holds, in no particular
// order. They are the informer's objects: read them, never change them.
func (x *Index) HeldPods() []*corev1.Pod {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]*corev1.Pod, 0, len(x.held))
	for _, p := range x.held {
		out = append(out, p)
	}
	return out
}

// first returns something still going on, or the zero Busy.
func (x *Index) first() Busy {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, why := range x.busy {
		return why
	}
	return Busy{}
}

func (x *Index) set(key string, why Busy) {
	if why.IsZero() {
		delete(x.busy, key)
	} else {
		x.busy[key] = why
	}
}

func (x *Index) onPod(obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	key := p.Namespace + "/" + p.Name
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set("pod "+key, podBusy(p))
	if x.heldOnly != nil && x.heldOnly(p) {
		x.held[key] = p
	} else {
		delete(x.held, key)
	}
	if job := p.Labels[batchv1.JobNameLabel]; job != "" {
		jk := p.Namespace + "/" + job
		x.podJob[key] = jk
		if x.jobPods[jk] == nil {
			x.jobPods[jk] = map[string]jobPod{}
		}
		x.jobPods[jk][key] = jobPodOf(p)
		x.recheckJob(jk)
	}
}

func (x *Index) onPodDeleted(obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	key := p.Namespace + "/" + p.Name
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set("pod "+key, Busy{})
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

func (x *Index) onJob(obj any) {
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

func (x *Index) onJobDeleted(obj any) {
	j, ok := obj.(*batchv1.Job)
	if !ok {
		return
	}
	key := j.Namespace + "/" + j.Name
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.jobs, key)
	x.set("job "+key, Busy{})
}

// recheckJob recomputes a Job's state from its latest object and pods; the
// caller holds mu.
func (x *Index) recheckJob(key string) {
	j := x.jobs[key]
	if j == nil {
		x.set("job "+key, Busy{})
		return
	}
	var n jobPods
	for _, p := range x.jobPods[key] {
		switch p {
		case podEnded:
			n.terminal++
		case podReady:
			n.ready++
			n.active++
		default:
			n.active++
		}
	}
	x.set("job "+key, jobBusy(j, n))
}

func (x *Index) onApps(obj any) {
	key, why := appsBusy(obj)
	if key == "" {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set(key, why)
}

func (x *Index) onAppsDeleted(obj any) {
	key, _ := appsBusy(obj)
	if key == "" {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.set(key, Busy{})
}
