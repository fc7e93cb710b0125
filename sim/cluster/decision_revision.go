package cluster

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// statusOnlyPrefixes are the etcd keys whose writes, once the scenario's
// queues are set up, change no decision: Kueue's ClusterQueue, LocalQueue
// and Cohort status (Kueue batches the first two for a second after every
// change, constants.UpdatesBatchPeriod, a simulated second in a replay:
// kueuesetup's status batching), leases and Events.
var statusOnlyPrefixes = []string{
	"/registry/kueue.x-k8s.io/clusterqueues/",
	"/registry/kueue.x-k8s.io/localqueues/",
	"/registry/kueue.x-k8s.io/cohorts/",
	"/registry/leases/",
	"/registry/events/",
	"/registry/events.k8s.io/",
}

// DecisionRevision is the etcd revision of the last write that can change
// a decision: every write except those to statusOnlyPrefixes. It comes
// from a watch of all of etcd's keys, started on the first call; a write
// is seen within the watch's delivery latency (about a millisecond here).
// Like Revision, it fails on a cluster whose etcd kueue-sim does not run.
func (cp *ControlPlane) DecisionRevision(ctx context.Context) (int64, error) {
	w, err := cp.writes(ctx)
	if err != nil {
		return 0, err
	}
	return w.last.Load(), nil
}

// Unseen names a resource ("pods", "workloads.kueue.x-k8s.io": see
// ResourceOfKey) that has a write in etcd its informer has not delivered
// yet, or returns "" when every resource seen reports is caught up. seen
// returns the highest resourceVersion an informer delivered for a
// resource, and false for resources nobody informs on (they are not
// checked). The first call (or DecisionRevision's) starts the watch:
// writes before it are not followed. It reads etcd's current revision and
// waits for nothing: while the watch of etcd's keys has not reached that
// revision, the writes it has not delivered are unknown, and Unseen names
// etcd's watch itself.
//
// Once every resource is caught up, Unseen names an informer one of
// whose handlers has not returned from an event another has
// (handler_marks.go): until then, the controller behind that handler may
// not have queued its reconcile.
//
// With it a settle knows, rather than guesses after a quiet pause, that
// every in-process controller has been handed every write so far.
func (cp *ControlPlane) Unseen(ctx context.Context, seen func(resource string) (int64, bool)) (string, error) {
	w, err := cp.writes(ctx)
	if err != nil {
		return "", err
	}
	rev, err := cp.Revision(ctx)
	if err != nil {
		return "", err
	}
	if w.seen.Load() < rev {
		return "etcd's watch", nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for res, last := range w.latest {
		if got, ok := seen(res); ok && got < last {
			return res, nil
		}
	}
	return cp.handlers.lagging(), nil
}

// writeWatch follows every write to etcd (see DecisionRevision, Unseen).
type writeWatch struct {
	once   sync.Once
	err    error
	last   atomic.Int64 // last write that can change a decision
	seen   atomic.Int64 // last revision the watch delivered
	failed atomic.Value // error
	cancel context.CancelFunc

	mu     sync.Mutex
	latest map[string]int64 // resource → revision of its last write
}

// writes starts the watch on first use.
func (cp *ControlPlane) writes(ctx context.Context) (*writeWatch, error) {
	w := &cp.etcd.writes
	w.once.Do(func() { w.err = cp.watchWrites(ctx) })
	if w.err != nil {
		return nil, w.err
	}
	if err := w.failed.Load(); err != nil {
		return nil, err.(error)
	}
	return w, nil
}

func (cp *ControlPlane) watchWrites(ctx context.Context) error {
	c, err := cp.etcdClient()
	if err != nil {
		return err
	}
	resp, err := c.Get(ctx, "/kueue-sim/revision", clientv3.WithSerializable(), clientv3.WithCountOnly())
	if err != nil {
		return fmt.Errorf("reading etcd's revision: %w", err)
	}
	w := &cp.etcd.writes
	w.last.Store(resp.Header.Revision)
	w.seen.Store(resp.Header.Revision)
	w.latest = map[string]int64{}
	wctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	ch := c.Watch(wctx, "/", clientv3.WithPrefix(), clientv3.WithRev(resp.Header.Revision+1))
	go func() {
		for r := range ch {
			if err := r.Err(); err != nil {
				if wctx.Err() == nil {
					w.failed.Store(fmt.Errorf("watching etcd: %w", err))
				}
				return
			}
			w.mu.Lock()
			for _, ev := range r.Events {
				key, rev := string(ev.Kv.Key), ev.Kv.ModRevision
				if res := ResourceOfKey(key); res != "" && rev > w.latest[res] {
					w.latest[res] = rev
				}
				if !statusOnly(key) && rev > w.last.Load() {
					w.last.Store(rev)
				}
			}
			w.mu.Unlock()
			// Only now are this response's writes in latest.
			if len(r.Events) > 0 {
				if rev := r.Events[len(r.Events)-1].Kv.ModRevision; rev > w.seen.Load() {
					w.seen.Store(rev)
				}
			}
			if r.Header.Revision > w.seen.Load() && r.IsProgressNotify() {
				w.seen.Store(r.Header.Revision)
			}
		}
	}()
	return nil
}

// ResourceOfKey names the resource an etcd key of kube-apiserver's stores:
// "pods" for /registry/pods/ns/name, "jobs" for /registry/jobs/ns/name
// (built-in resources are stored under their plural alone), and
// "workloads.kueue.x-k8s.io" for /registry/kueue.x-k8s.io/workloads/ns/name
// (custom resources under their group, then plural). "" for other keys.
func ResourceOfKey(key string) string {
	rest, ok := strings.CutPrefix(key, "/registry/")
	if !ok {
		return ""
	}
	first, rest, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	if !strings.Contains(first, ".") {
		return first
	}
	plural, _, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return plural + "." + first
}

func statusOnly(key string) bool {
	for _, p := range statusOnlyPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}
