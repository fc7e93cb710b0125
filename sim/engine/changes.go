package engine

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// A scenario's changes (scenarios.Change) are items of the timeline like
// arrivals: at its time, with Kueue's scheduler held, a change's objects
// are applied and deleted before the instant's arrivals are submitted, so
// that Kueue schedules the instant's workloads against the changed queues.
// Kueue takes a queue's change in from its informers' handlers (its cache
// and queue manager update there), which the settle waits for: the kinds a
// change writes join the kinds whose writes it follows (changeObjects).

// planChanges puts each change on the timeline.
func (r *Runner) planChanges() {
	for i, c := range r.s.Changes {
		r.queue.push(&item{at: c.At.Duration, act: actChange, change: i})
	}
}

// changeObjects are one object of each kind the scenario's changes write.
func (r *Runner) changeObjects() []client.Object {
	var out []client.Object
	for i, c := range r.s.Changes {
		if set := changeSet(r.s, i); set != nil {
			for _, o := range set.Objects {
				out = append(out, o.Obj)
			}
		}
		for _, d := range c.Delete {
			if obj := deletable(r.t.Client.Scheme(), d); obj != nil {
				out = append(out, obj)
			}
		}
	}
	return out
}

// applyChanges makes the instant's changes, in the scenario's order, and
// returns the events that record them. A change that fails stops the run:
// its objects are the scenario's, and what follows would not be.
func (r *Runner) applyChanges(ctx context.Context, items []*item) ([]record.Event, error) {
	now := record.Duration(r.clock.Elapsed())
	var evs []record.Event
	for _, it := range items {
		if it.act != actChange {
			continue
		}
		c := r.s.Changes[it.change]
		if set := changeSet(r.s, it.change); set != nil {
			for _, o := range set.Objects {
				how, err := r.applyObject(ctx, o.Obj)
				if err != nil {
					return evs, fmt.Errorf("changes[%d] at %s: applying %s %s (%s): %w", it.change, c.At.Duration, o.Kind, objectName(o.Obj), o.Source, err)
				}
				evs = append(evs, record.Event{T: now, Type: record.TypeChanged, Reason: how,
					Message: fmt.Sprintf("%s %s (%s)", o.Kind, objectName(o.Obj), o.Source)})
			}
		}
		for j, d := range c.Delete {
			obj := deletable(r.t.Client.Scheme(), d)
			if obj == nil {
				return evs, fmt.Errorf("changes[%d].delete[%d]: kind %q is not one a change deletes", it.change, j, d.Kind)
			}
			err := r.t.Client.Delete(ctx, obj, client.PropagationPolicy(metav1.DeletePropagationBackground))
			if apierrors.IsNotFound(err) {
				return evs, fmt.Errorf("changes[%d].delete[%d]: %s %s does not exist at %s: delete it after it is created, or remove it from the change", it.change, j, d.Kind, objectName(obj), c.At.Duration)
			}
			if err != nil {
				return evs, fmt.Errorf("changes[%d].delete[%d]: deleting %s %s: %w", it.change, j, d.Kind, objectName(obj), err)
			}
			evs = append(evs, record.Event{T: now, Type: record.TypeChanged, Reason: "Deleted",
				Message: fmt.Sprintf("%s %s (changes[%d].delete[%d])", d.Kind, objectName(obj), it.change, j)})
		}
	}
	return evs, nil
}

// applyObject creates obj, or replaces the spec, labels and annotations of
// the object of its kind and name (keeping its finalizers: Kueue's, which
// hold a ClusterQueue while workloads use it). It returns "Created" or
// "Replaced".
func (r *Runner) applyObject(ctx context.Context, want client.Object) (string, error) {
	how := "Replaced"
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur := want.DeepCopyObject().(client.Object)
		err := r.t.Client.Get(ctx, client.ObjectKeyFromObject(want), cur)
		if apierrors.IsNotFound(err) {
			how = "Created"
			return r.t.Client.Create(ctx, want.DeepCopyObject().(client.Object))
		}
		if err != nil {
			return err
		}
		obj := want.DeepCopyObject().(client.Object)
		obj.SetResourceVersion(cur.GetResourceVersion())
		obj.SetFinalizers(cur.GetFinalizers())
		return r.t.Client.Update(ctx, obj)
	})
	return how, err
}

// changeSet is the loaded objects of change i's apply files, or nil.
func changeSet(s *scenarios.Scenario, i int) *manifests.Set {
	if i >= len(s.Loaded.Changes) {
		return nil
	}
	return s.Loaded.Changes[i]
}

// deletable is the object a change's delete names, built by scheme from
// Kueue's API version, or nil for a kind a change does not delete.
func deletable(scheme *runtime.Scheme, ref scenarios.ObjectRef) client.Object {
	if _, ok := scenarios.DeletableKinds[ref.Kind]; !ok {
		return nil
	}
	o, err := scheme.New(kueue.SchemeGroupVersion.WithKind(ref.Kind))
	if err != nil {
		return nil
	}
	obj, ok := o.(client.Object)
	if !ok {
		return nil
	}
	obj.SetName(ref.Name)
	obj.SetNamespace(ref.Namespace)
	return obj
}

// objectName is namespace/name, or name for a cluster-scoped object.
func objectName(obj client.Object) string {
	if ns := obj.GetNamespace(); ns != "" {
		return ns + "/" + obj.GetName()
	}
	return obj.GetName()
}
