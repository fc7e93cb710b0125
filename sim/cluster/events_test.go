package cluster

import (
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
)

// countingSink counts what would have been written to the API server.
type countingSink struct {
	mu     sync.Mutex
	writes int
}

func (s *countingSink) count() int                                    { s.mu.Lock(); defer s.mu.Unlock(); return s.writes }
func (s *countingSink) add()                                          { s.mu.Lock(); s.writes++; s.mu.Unlock() }
func (s *countingSink) Create(e *corev1.Event) (*corev1.Event, error) { s.add(); return e, nil }
func (s *countingSink) Update(e *corev1.Event) (*corev1.Event, error) { s.add(); return e, nil }
func (s *countingSink) Patch(e *corev1.Event, _ []byte) (*corev1.Event, error) {
	s.add()
	return e, nil
}

func TestInProcessBroadcasterDeliversEventsButWritesNone(t *testing.T) {
	for name, tc := range map[string]struct {
		b          record.EventBroadcaster
		wantWrites bool
	}{
		"client-go's broadcaster writes": {b: record.NewBroadcaster(), wantWrites: true},
		"the in-process one writes none": {b: newInProcessBroadcaster()},
	} {
		t.Run(name, func(t *testing.T) {
			defer tc.b.Shutdown()
			sink := &countingSink{}
			tc.b.StartRecordingToSink(sink)
			seen := make(chan string, 1)
			tc.b.StartEventWatcher(func(e *corev1.Event) { seen <- e.Reason })
			rec := tc.b.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "kueue-admission"})
			rec.Event(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}, corev1.EventTypeNormal, "QuotaReserved", "admitted")
			select {
			case r := <-seen:
				if r != "QuotaReserved" {
					t.Fatalf("watcher saw %q, want QuotaReserved", r)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the event never reached the broadcaster's watchers")
			}
			// The sink is called from its own watcher goroutine: give it
			// the time the watcher above needed, several times over.
			deadline := time.Now().Add(2 * time.Second)
			for sink.count() == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if got := sink.count() > 0; got != tc.wantWrites {
				t.Errorf("events written to the API: %d, want writes %v", sink.count(), tc.wantWrites)
			}
		})
	}
}

// The manager stops its own recorder provider in a goroutine that can start
// a watcher after the control plane shut the broadcaster down: that must
// not print client-go's "Unable start event watcher" error at the end of
// every run.
func TestInProcessBroadcasterStartsNoWatcherAfterShutdown(t *testing.T) {
	var mu sync.Mutex
	var errs []string
	klog.SetLogger(funcr.New(func(prefix, args string) {
		mu.Lock()
		errs = append(errs, prefix+" "+args)
		mu.Unlock()
	}, funcr.Options{Verbosity: 0}))
	defer klog.ClearLogger()
	for name, tc := range map[string]struct {
		b       record.EventBroadcaster
		wantErr bool
	}{
		"client-go's broadcaster logs an error": {b: record.NewBroadcaster(), wantErr: true},
		"the in-process one stays quiet":        {b: newInProcessBroadcaster()},
	} {
		t.Run(name, func(t *testing.T) {
			mu.Lock()
			errs = nil
			mu.Unlock()
			tc.b.Shutdown()
			w := tc.b.StartEventWatcher(func(*corev1.Event) {})
			w.Stop()
			mu.Lock()
			defer mu.Unlock()
			if got := len(errs) > 0; got != tc.wantErr {
				t.Errorf("logged %q, want an error logged: %v", errs, tc.wantErr)
			}
		})
	}
}
