package kueuesetup

import (
	"errors"
	"fmt"
	"reflect"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// controller-runtime's controller type is internal; the fields kueue-sim
// reaches (Name, Do, NewQueue) are exported, so they are reached by
// reflection. status_batch.go and workload_timers.go say what each
// changes, and fail, naming themselves, if an upgrade moves a field.

// queue is the work queue of Kueue's controllers.
type queue = workqueue.TypedRateLimitingInterface[reconcile.Request]

// newQueueFunc is the type of controller-runtime's Options.NewQueue for
// Kueue's controllers.
type newQueueFunc = func(string, workqueue.TypedRateLimiter[reconcile.Request]) queue

// controllerOf returns the struct of controller-runtime's controller r and
// its Name; ok is false when r is not such a controller.
func controllerOf(r manager.Runnable) (ctl reflect.Value, name string, ok bool) {
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, "", false
	}
	n := v.Elem().FieldByName("Name")
	if !n.IsValid() || n.Kind() != reflect.String {
		return reflect.Value{}, "", false
	}
	return v.Elem(), n.String(), true
}

// wrapNewQueue makes the controller ctl wrap every queue its NewQueue
// makes.
func wrapNewQueue(ctl reflect.Value, wrap func(queue) queue) error {
	field := ctl.FieldByName("NewQueue")
	if !field.IsValid() || !field.CanSet() || field.Type() != reflect.TypeFor[newQueueFunc]() {
		return fmt.Errorf("controller-runtime's controller (%s) has no NewQueue field of type %v", ctl.Type(), reflect.TypeFor[newQueueFunc]())
	}
	inner, _ := field.Interface().(newQueueFunc)
	if inner == nil {
		return errors.New("its controller has no queue constructor yet")
	}
	field.Set(reflect.ValueOf(newQueueFunc(func(n string, rl workqueue.TypedRateLimiter[reconcile.Request]) queue {
		return wrap(inner(n, rl))
	})))
	return nil
}
