package cluster

import (
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
)

// An informer hands each event to each of its handlers on a goroutine of
// the handler's own, so the settle's seen marks (settle.SeenMarks), kept
// by one handler, say that a write reached the informer, not that every
// controller's handler has queued its reconcile for it. handlerMarks
// closes that gap: every informer of the manager's cache is made with
// newInformer, which wraps each handler added to it so that, once the
// handler returns from an event, the event's resourceVersion is marked
// for that handler. A handler that has returned from fewer events than
// another handler of the same informer is behind (lagging), and Unseen
// reports the informer: the controller behind that handler may not have
// queued its reconcile yet.
type handlerMarks struct {
	mu        sync.Mutex
	informers []*markingInformer
}

// newInformer is the manager cache's NewInformer: client-go's informer,
// with its handlers marked.
func (h *handlerMarks) newInformer(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
	inf := &markingInformer{SharedIndexInformer: toolscache.NewSharedIndexInformer(lw, obj, resync, indexers), kind: kindName(obj)}
	h.mu.Lock()
	h.informers = append(h.informers, inf)
	h.mu.Unlock()
	return inf
}

// lagging names an informer one of whose handlers has not returned from
// an event another has, or returns "".
func (h *handlerMarks) lagging() string {
	h.mu.Lock()
	infs := h.informers
	h.mu.Unlock()
	for _, inf := range infs {
		if inf.lagging() {
			return inf.kind + " (a handler behind another)"
		}
	}
	return ""
}

// kindName names the objects an informer holds, for messages.
func kindName(obj runtime.Object) string {
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind != "" {
		return gvk.Kind
	}
	t := reflect.TypeOf(obj)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// markingInformer is a shared informer whose handlers mark what they have
// returned from.
type markingInformer struct {
	toolscache.SharedIndexInformer
	kind string

	mu       sync.Mutex
	handlers map[toolscache.ResourceEventHandlerRegistration]*markedHandler
	// highest is the highest resourceVersion any handler has returned from.
	highest atomic.Int64
}

func (i *markingInformer) AddEventHandler(h toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	m := i.mark(h)
	reg, err := i.SharedIndexInformer.AddEventHandler(m)
	return i.registered(m, reg, err)
}

func (i *markingInformer) AddEventHandlerWithResyncPeriod(h toolscache.ResourceEventHandler, resync time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	m := i.mark(h)
	reg, err := i.SharedIndexInformer.AddEventHandlerWithResyncPeriod(m, resync)
	return i.registered(m, reg, err)
}

func (i *markingInformer) AddEventHandlerWithOptions(h toolscache.ResourceEventHandler, opts toolscache.HandlerOptions) (toolscache.ResourceEventHandlerRegistration, error) {
	m := i.mark(h)
	reg, err := i.SharedIndexInformer.AddEventHandlerWithOptions(m, opts)
	return i.registered(m, reg, err)
}

func (i *markingInformer) RemoveEventHandler(reg toolscache.ResourceEventHandlerRegistration) error {
	i.mu.Lock()
	delete(i.handlers, reg)
	i.mu.Unlock()
	return i.SharedIndexInformer.RemoveEventHandler(reg)
}

// mark wraps h. A handler added late starts level with the others: the
// events it is handed first replay objects the others have seen.
func (i *markingInformer) mark(h toolscache.ResourceEventHandler) *markedHandler {
	m := &markedHandler{inner: h, informer: i}
	m.done.Store(i.highest.Load())
	return m
}

func (i *markingInformer) registered(m *markedHandler, reg toolscache.ResourceEventHandlerRegistration, err error) (toolscache.ResourceEventHandlerRegistration, error) {
	if err == nil {
		i.mu.Lock()
		if i.handlers == nil {
			i.handlers = map[toolscache.ResourceEventHandlerRegistration]*markedHandler{}
		}
		i.handlers[reg] = m
		i.mu.Unlock()
	}
	return reg, err
}

// stuckAfter is how long a handler may stay behind the same
// resourceVersion before it no longer counts as lagging: a handler added
// while another was handed a deletion is never handed that deletion (its
// first events replay what the informer holds), and stays behind until
// the informer's next event. Wall time, as the settle's other bounds.
const stuckAfter = 2 * time.Second

// lagging tells whether a handler has not returned from an event another
// has (and has not been stuck behind it for stuckAfter).
func (i *markingInformer) lagging() bool {
	top := i.highest.Load()
	now := time.Now()
	i.mu.Lock()
	defer i.mu.Unlock()
	for _, m := range i.handlers {
		if m.done.Load() >= top {
			continue
		}
		if m.behindAt != top {
			m.behindAt, m.behindSince = top, now
		}
		if now.Sub(m.behindSince) < stuckAfter {
			return true
		}
	}
	return false
}

// markedHandler is a handler that marks the resourceVersion of each event
// it returns from.
type markedHandler struct {
	inner    toolscache.ResourceEventHandler
	informer *markingInformer
	done     atomic.Int64
	// behindAt and behindSince: the highest resourceVersion the handler
	// was last found behind, and since when (the informer's mu).
	behindAt    int64
	behindSince time.Time
}

func (m *markedHandler) OnAdd(obj any, isInInitialList bool) {
	m.inner.OnAdd(obj, isInInitialList)
	m.returned(obj)
}

func (m *markedHandler) OnUpdate(oldObj, newObj any) {
	m.inner.OnUpdate(oldObj, newObj)
	m.returned(newObj)
}

func (m *markedHandler) OnDelete(obj any) {
	m.inner.OnDelete(obj)
	m.returned(obj)
}

// returned marks obj's resourceVersion for this handler and its informer.
func (m *markedHandler) returned(obj any) {
	if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	o, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	rv, err := strconv.ParseInt(o.GetResourceVersion(), 10, 64)
	if err != nil {
		return
	}
	raise(&m.done, rv)
	raise(&m.informer.highest, rv)
}

// raise sets v to rv unless it holds more.
func raise(v *atomic.Int64, rv int64) {
	for {
		cur := v.Load()
		if rv <= cur || v.CompareAndSwap(cur, rv) {
			return
		}
	}
}
