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
// and Cohort status (which Kueue batches for a wall second after every
// change: constants.UpdatesBatchPeriod), leases and Events.
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
	w := &cp.etcd.decisions
	w.once.Do(func() { w.err = cp.watchDecisions(ctx) })
	if w.err != nil {
		return 0, w.err
	}
	if err := w.failed.Load(); err != nil {
		return 0, err.(error)
	}
	return w.last.Load(), nil
}

// decisionWatch tracks DecisionRevision.
type decisionWatch struct {
	once   sync.Once
	err    error
	last   atomic.Int64
	failed atomic.Value // error
	cancel context.CancelFunc
}

func (cp *ControlPlane) watchDecisions(ctx context.Context) error {
	c, err := cp.etcdClient()
	if err != nil {
		return err
	}
	resp, err := c.Get(ctx, "/kueue-sim/revision", clientv3.WithSerializable(), clientv3.WithCountOnly())
	if err != nil {
		return fmt.Errorf("reading etcd's revision: %w", err)
	}
	w := &cp.etcd.decisions
	w.last.Store(resp.Header.Revision)
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
			for _, ev := range r.Events {
				if !statusOnly(string(ev.Kv.Key)) && ev.Kv.ModRevision > w.last.Load() {
					w.last.Store(ev.Kv.ModRevision)
				}
			}
		}
	}()
	return nil
}

func statusOnly(key string) bool {
	for _, p := range statusOnlyPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}
