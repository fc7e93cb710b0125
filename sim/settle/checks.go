package settle

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueuemetrics "sigs.k8s.io/kueue/pkg/metrics"

	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
)

// KueueInadmissibleCycles reads Kueue's
// kueue_admission_attempts_total{result="inadmissible"}: the scheduling
// cycles that admitted nothing (Config.Attempts). The counter is
// process-wide; the settle only uses differences.
func KueueInadmissibleCycles() (float64, error) {
	n, err := kueuesetup.SchedulingCycles()
	return n[string(kueuemetrics.AdmissionResultInadmissible)], err
}

// statusControllers are Kueue's controllers that, once the queues are set
// up, only write ClusterQueue, LocalQueue and Cohort status: a step does
// not wait for them (they batch their writes for a second, a simulated
// one in a replay: see kueuesetup.WithSimulatedTimers).
var statusControllers = map[string]bool{"clusterqueue_controller": true, "localqueue_controller": true, "cohort_controller": true}

// StatusOnly are the statusControllers a step does not wait for
// (Config.StatusOnly). With admission fair sharing the LocalQueue
// reconciler also keeps each LocalQueue's consumed usage, which orders
// admissions, in Kueue's queue manager: a step waits for it.
func StatusOnly(admissionFairSharing bool) map[string]bool {
	if !admissionFairSharing {
		return statusControllers
	}
	out := maps.Clone(statusControllers)
	delete(out, "localqueue_controller")
	return out
}

// revision is etcd's current revision: any write anywhere changes it. It
// comes from etcd itself where the target can read it (Config.Revision),
// else from a list the API server reads from etcd.
func (s *Settler) revision(ctx context.Context) (string, error) {
	if s.etcdRevision != nil {
		rev, err := s.etcdRevision(ctx)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(rev, 10), nil
	}
	var l corev1.NamespaceList
	if err := s.cfg.Direct.List(ctx, &l, client.Limit(1)); err != nil {
		return "", fmt.Errorf("reading the etcd revision: %w", err)
	}
	return l.ResourceVersion, nil
}

// busy names something that is still going on, or returns the zero Busy:
// the engine's own workers first, then the in-process controllers' work
// queues, then what kube-scheduler and kube-controller-manager owe, and
// Kueue's workloads to try last. Kueue's pending gauge is the one reason
// the retry rule may look past (see retryRule), so it is named only when
// nothing else is going on: a preemptor Kueue requeues while
// kube-controller-manager deletes its targets' pods waits for those pods,
// however many cycles Kueue runs meanwhile.
func (s *Settler) busy() (Busy, error) {
	owed, trying, err := s.owed()
	if err != nil || !owed.IsZero() {
		return owed, err
	}
	return trying, nil
}

// owedBesidesKueue names anything going on but Kueue trying its pending
// workloads: the engine's workers, the in-process work queues, what the
// out-of-process controllers owe. The retry rule moves on only when it
// names nothing.
func (s *Settler) owedBesidesKueue() (Busy, error) {
	owed, _, err := s.owed()
	return owed, err
}

// owed is busy's reading: what is owed besides Kueue (zero when nothing
// is) and, when nothing is, Kueue's workloads to try.
func (s *Settler) owed() (owed, trying Busy, err error) {
	for _, f := range s.cfg.Others {
		if b := f(); !b.IsZero() {
			return b, Busy{}, nil
		}
	}
	queues, trying, err := s.inProcess()
	if err != nil || !queues.IsZero() {
		return queues, Busy{}, err
	}
	return s.outOfProcess(), trying, nil
}

// inProcess reads the work queues of every in-process controller (Kueue's,
// kueue-sim's), queues, and Kueue's queue of workloads it has yet to try,
// trying (the first ClusterQueue with any; zero while Config.Paused). It
// keeps Kueue's active workloads over all ClusterQueues in s.active.
func (s *Settler) inProcess() (queues, trying Busy, err error) {
	s.active = 0
	mfs, err := s.gatherer.Gather()
	if err != nil {
		return Busy{}, Busy{}, fmt.Errorf("reading controller metrics: %w", err)
	}
	for _, mf := range mfs {
		switch mf.GetName() {
		case "workqueue_depth", "controller_runtime_active_workers":
			for _, m := range mf.GetMetric() {
				if queues.IsZero() && m.GetGauge().GetValue() > 0 && !s.ignore[label(m, "controller")] && !s.ignore[label(m, "name")] {
					queues = gaugeBusy(mf.GetName(), m)
				}
			}
		case "kueue_pending_workloads":
			if s.cfg.Paused != nil && s.cfg.Paused() {
				continue
			}
			s.active, trying = activeIn(mf)
		}
	}
	return queues, trying, nil
}

// gaugeBusy is the busy reason of a work-queue gauge m of family name
// above zero. Its reasonKind keeps the controller the gauge names (or,
// lacking one, the queue), cut at a ',' or '}' as the rendered labels
// would cut it.
func gaugeBusy(name string, m *dto.Metric) Busy {
	b := Busy{Kind: WorkQueue, Detail: fmt.Sprintf("%s{%s} = %g", name, labels(m), m.GetGauge().GetValue())}
	if name == "controller_runtime_active_workers" {
		b.Kind = ActiveWorkers
	}
	key, ok := labelOK(m, "controller")
	if !ok {
		key, ok = labelOK(m, "name")
	}
	if !ok {
		return Busy{Kind: Other, Detail: b.Detail}
	}
	if j := strings.IndexAny(key, ",}"); j >= 0 {
		key = key[:j]
	}
	b.Object = key
	return b
}

// activeWorkloads reads Kueue's active workloads over all ClusterQueues
// from its pending gauge (see draining).
func (s *Settler) activeWorkloads() (float64, error) {
	mfs, err := s.gatherer.Gather()
	if err != nil {
		return 0, fmt.Errorf("reading Kueue's pending workloads: %w", err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "kueue_pending_workloads" {
			n, _ := activeIn(mf)
			return n, nil
		}
	}
	return 0, nil
}

// activeIn sums Kueue's pending gauge mf's active workloads over all
// ClusterQueues; first is the busy reason naming the first ClusterQueue
// with any (zero if none).
func activeIn(mf *dto.MetricFamily) (total float64, first Busy) {
	for _, m := range mf.GetMetric() {
		if n := m.GetGauge().GetValue(); label(m, "status") == "active" && n > 0 {
			total += n
			if first.IsZero() {
				first = Busy{Kind: KueueTrying, Object: label(m, "cluster_queue"), Detail: fmt.Sprintf("%g", n)}
			}
		}
	}
	return total, first
}

// outOfProcess checks that kube-scheduler and kube-controller-manager have
// caught up with what they were given, from the busy index the informers
// keep (see index.go).
func (s *Settler) outOfProcess() Busy {
	if s.cfg.Index == nil {
		return Busy{}
	}
	return s.cfg.Index.first()
}

func label(m *dto.Metric, name string) string {
	v, _ := labelOK(m, name)
	return v
}

func labelOK(m *dto.Metric, name string) (string, bool) {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue(), true
		}
	}
	return "", false
}

func labels(m *dto.Metric) string {
	s := ""
	for i, l := range m.GetLabel() {
		if i > 0 {
			s += ","
		}
		s += l.GetName() + "=" + l.GetValue()
	}
	return s
}
