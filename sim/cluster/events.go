package cluster

import (
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/record"
)

// inProcessBroadcaster is an event broadcaster that never writes to the
// API server: controller-runtime's recorder provider starts recording to
// its sink, which does nothing here, and to its log watcher, which still
// logs every Event at verbosity 1 (see WithoutAPIEvents).
type inProcessBroadcaster struct {
	record.EventBroadcaster
}

var _ record.EventBroadcaster = inProcessBroadcaster{}

func newInProcessBroadcaster() inProcessBroadcaster {
	return inProcessBroadcaster{EventBroadcaster: record.NewBroadcaster()}
}

// StartRecordingToSink records nothing.
func (inProcessBroadcaster) StartRecordingToSink(record.EventSink) watch.Interface {
	return watch.NewEmptyWatch()
}
