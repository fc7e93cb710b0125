package cluster

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/record"
)

// inProcessBroadcaster is an event broadcaster that never writes to the
// API server: controller-runtime's recorder provider starts recording to
// its sink, which does nothing here, and to its log watcher, which still
// logs every Event at verbosity 1 (see WithoutAPIEvents).
//
// It is shared by the manager's two recorder providers (the cluster's,
// which Kueue records through, and the manager's own, used only for leader
// election). The manager's starts it lazily while the manager stops, in a
// goroutine that may run after the control plane has shut the broadcaster
// down; client-go then logs "Unable start event watcher" as an error. A
// watcher started after Shutdown gets an empty watch, quietly.
type inProcessBroadcaster struct {
	record.EventBroadcaster

	mu   sync.Mutex
	done bool
}

var _ record.EventBroadcaster = (*inProcessBroadcaster)(nil)

func newInProcessBroadcaster() *inProcessBroadcaster {
	return &inProcessBroadcaster{EventBroadcaster: record.NewBroadcaster()}
}

// StartRecordingToSink records nothing.
func (*inProcessBroadcaster) StartRecordingToSink(record.EventSink) watch.Interface {
	return watch.NewEmptyWatch()
}

// StartEventWatcher watches the broadcaster until it is shut down.
func (b *inProcessBroadcaster) StartEventWatcher(handler func(*corev1.Event)) watch.Interface {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return watch.NewEmptyWatch()
	}
	return b.EventBroadcaster.StartEventWatcher(handler)
}

// Shutdown stops the broadcaster and its watchers.
func (b *inProcessBroadcaster) Shutdown() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.done {
		b.done = true
		b.EventBroadcaster.Shutdown()
	}
}

// WatchInProcessEvents calls handler with every Event that Kueue and
// kueue-sim's controllers record while they are kept in process
// (WithoutAPIEvents), until the watch is stopped or the control plane
// stops. ok is false when Events go to the API server instead: read them
// there.
func (cp *ControlPlane) WatchInProcessEvents(handler func(*corev1.Event)) (w watch.Interface, ok bool) {
	if cp.eventBroadcaster == nil {
		return watch.NewEmptyWatch(), false
	}
	return cp.eventBroadcaster.StartEventWatcher(handler), true
}
