package cluster

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// inProcessEventsManager is the manager Kueue and kueue-sim's controllers
// are set up with when Events stay in process (WithoutAPIEvents).
//
// controller-runtime hands out recorders of two Event APIs: core/v1, whose
// broadcaster WithoutAPIEvents replaces with the in-process one, and
// events.k8s.io/v1 (GetEventRecorder), whose broadcaster always writes to
// the API server and cannot be replaced. Kueue v0.18 and later record
// through the second; this manager gives them recorders of the first
// instead, so their Events reach the in-process broadcaster (and its
// watchers) like every other Event and never the API server. Against a
// controller-runtime whose Manager has no GetEventRecorder, the method is
// unused.
type inProcessEventsManager struct {
	manager.Manager
}

// GetEventRecorder returns an events.k8s.io recorder that records through
// the manager's core/v1 recorder of the same name.
func (m inProcessEventsManager) GetEventRecorder(name string) events.EventRecorder {
	return coreEventsRecorder{m.GetEventRecorderFor(name)} //nolint:staticcheck // the core/v1 recorder is the one with an in-process broadcaster
}

// coreEventsRecorder records events.k8s.io Events as core/v1 Events: the
// regarding object becomes the involved object, the note the message; the
// related object and the action, which core/v1 Events lack, are dropped.
type coreEventsRecorder struct {
	rec record.EventRecorder
}

var _ events.EventRecorder = coreEventsRecorder{}

func (r coreEventsRecorder) Eventf(regarding, _ runtime.Object, eventtype, reason, _, note string, args ...any) {
	r.rec.Eventf(regarding, eventtype, reason, note, args...)
}
