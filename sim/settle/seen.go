package settle

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// SeenMarks keeps, per resource, the highest resourceVersion the manager's
// informers have delivered. Against the resource versions of etcd's last
// writes (the control plane's watch of etcd) it tells whether every in-process controller has
// been handed every write: until then a work queue that looks empty may
// only not have heard of its next item yet. Informer handlers write it;
// the settle reads it.
type SeenMarks struct {
	mu   sync.Mutex
	seen map[string]int64 // resource → highest resourceVersion delivered
	// elsewhere are the resources another handler marks (the engine's
	// observer's); Watch adds no handler of its own for them.
	elsewhere map[string]bool
}

// NewSeenMarks makes marks of nothing seen.
func NewSeenMarks() *SeenMarks {
	return &SeenMarks{seen: map[string]int64{}, elsewhere: map[string]bool{}}
}

// MarkedBy records that another handler marks resource (before Watch).
func (m *SeenMarks) MarkedBy(resource string) {
	m.mu.Lock()
	m.elsewhere[resource] = true
	m.mu.Unlock()
}

// Get is the highest resourceVersion of resource delivered: false for a
// resource nobody here informs on.
func (m *SeenMarks) Get(resource string) (int64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.seen[resource]
	return v, ok
}

// Mark records that an informer handler was handed obj, of resource.
func (m *SeenMarks) Mark(resource string, obj any) {
	if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	o, ok := obj.(client.Object)
	if !ok {
		return
	}
	rv, err := strconv.ParseInt(o.GetResourceVersion(), 10, 64)
	if err != nil {
		return
	}
	m.mu.Lock()
	if rv > m.seen[resource] {
		m.seen[resource] = rv
	}
	m.mu.Unlock()
}

// SeenObjects are the objects whose writes the in-process controllers act
// on whatever the scenario: Kueue's Workloads, pods, Jobs and the apps
// objects of Notebooks and InferenceServices. The run adds the kinds its
// streams submit (see Watch).
func SeenObjects() []client.Object {
	return []client.Object{&kueue.Workload{}, &corev1.Pod{}, &batchv1.Job{},
		&appsv1.StatefulSet{}, &appsv1.ReplicaSet{}, &appsv1.Deployment{}}
}

// Watch registers a handler on the informer of each object's kind, named
// as etcd's keys name its resource (ResourceOf, cluster.ResourceOfKey). A kind starts
// out seen up to the last resourceVersion its informer has taken in (a
// write deleted before the handler came is never delivered to it); a kind
// whose informer does not tell that is not tracked.
func (m *SeenMarks) Watch(ctx context.Context, c cache.Cache, resourceOf func(client.Object) (string, error), objs []client.Object) error {
	done := map[string]bool{}
	for _, obj := range objs {
		res, err := resourceOf(obj)
		if err != nil {
			return err
		}
		if done[res] {
			continue
		}
		done[res] = true
		inf, err := c.GetInformer(ctx, obj)
		if err != nil {
			return fmt.Errorf("watching %s for settle checks: %w", res, err)
		}
		synced, ok := inf.(interface{ LastSyncResourceVersion() string })
		if !ok {
			continue
		}
		if err := m.handle(res, inf); err != nil {
			return err
		}
		rv, _ := strconv.ParseInt(synced.LastSyncResourceVersion(), 10, 64)
		m.mu.Lock()
		m.seen[res] = max(m.seen[res], rv)
		m.mu.Unlock()
	}
	return nil
}

// handle marks res from its informer inf's events, unless another
// handler does already (MarkedBy).
func (m *SeenMarks) handle(res string, inf cache.Informer) error {
	m.mu.Lock()
	elsewhere := m.elsewhere[res]
	m.mu.Unlock()
	if elsewhere {
		return nil
	}
	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { m.Mark(res, obj) },
		UpdateFunc: func(_, obj any) { m.Mark(res, obj) },
		DeleteFunc: func(obj any) { m.Mark(res, obj) },
	}); err != nil {
		return fmt.Errorf("watching %s for settle checks: %w", res, err)
	}
	return nil
}

// ResourceOf names obj's resource as etcd's keys do: kube-apiserver stores
// the built-in groups' resources under their plural alone ("pods", "jobs",
// "statefulsets"), custom resources under their group and plural
// ("workloads.kueue.x-k8s.io").
func ResourceOf(c client.Client) func(client.Object) (string, error) {
	return func(obj client.Object) (string, error) {
		gvk, err := c.GroupVersionKindFor(obj)
		if err != nil {
			return "", fmt.Errorf("naming the resource of %T: %w", obj, err)
		}
		mapping, err := c.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			return "", fmt.Errorf("naming the resource of %s: %w", gvk.Kind, err)
		}
		if g := mapping.Resource.Group; strings.Contains(g, ".") {
			return mapping.Resource.Resource + "." + g, nil
		}
		return mapping.Resource.Resource, nil
	}
}
