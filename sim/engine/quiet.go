package engine

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueuemetrics "sigs.k8s.io/kueue/pkg/metrics"

	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
)

// Settle timing: the control plane is quiet when every check passes on
// settleRounds consecutive polls settlePoll apart with no write to etcd in
// between; a step that is not quiet after settleTimeout is logged as a
// warning and the run goes on.
const (
	settlePoll    = 10 * time.Millisecond
	settleRounds  = 3
	settleTimeout = 2 * time.Minute
)

// Where the settle knows that every write so far has reached the
// in-process controllers (see settler.unseen), the pause that stood in for
// that knowledge shrinks to two polls 2 ms apart: long enough for a
// shared informer to hand an event it delivered to the settle to its other
// handlers (Kueue's) as well.
const (
	seenPoll     = 2 * time.Millisecond
	seenBusyPoll = settlePoll
	seenRounds   = 2
)

// informersBehind starts the busy reason of a write the manager's
// informers have not delivered yet.
const informersBehind = "informers have not delivered every write"

// kueueTrying starts the busy reason of Kueue's pending-active gauge.
// Kueue may keep workloads active while it cannot make progress (it
// requeues a preemptor at once while its targets are still being evicted,
// a workload that lost its nomination to another, and one whose pending
// message it rewrites at every try: see kueueChurn). When only that churn
// holds for tryGrace, with no decision and at least tryAttempts of Kueue's
// scheduling cycles ending inadmissible in the meantime (Kueue's own
// kueue_admission_attempts_total, so a slow machine that gave Kueue no
// cycle does not pass for a stuck one), the control plane is quiet.
const (
	kueueTrying   = "Kueue has"
	etcdChanging  = "etcd keeps changing"
	kueueTryGrace = time.Second
	tryAttempts   = 3
)

// kueueTryingFormat is the whole busy reason of Kueue's pending-active
// gauge: the first ClusterQueue with workloads to try and their count
// (draining compares the total over all ClusterQueues, the settler's
// active).
const kueueTryingFormat = kueueTrying + " %g workloads to try in ClusterQueue %s"

// settler tells whether the control plane has finished reacting.
type settler struct {
	poll     time.Duration
	rounds   int           // quiet polls in a row that make the control plane quiet
	busyPoll time.Duration // longest poll while the control plane stays busy
	timeout  time.Duration // give up after this long (settleTimeout)
	cache    cache.Cache   // the manager's informer cache
	direct   client.Reader // reads through to the API server
	gatherer prometheus.Gatherer
	index    *busyIndex
	// tryGrace and progress (the count of decisions observed): see
	// kueueTrying.
	tryGrace time.Duration
	progress func() int64
	// attempts counts Kueue's scheduling cycles that admitted nothing
	// (see kueueTrying); nil means tryGrace alone decides.
	attempts func() (float64, error)
	// retriedNotes: see takeRetriedNotes.
	retriedNotes []string
	// active is Kueue's active workloads over all ClusterQueues, as the
	// last read of its pending gauge found them (see draining).
	active float64
	// observe runs at every poll, on the caller's goroutine: the engine
	// drains its observations there.
	observe func()
	// etcdRevision reads etcd's revision directly, when the target can.
	etcdRevision func(context.Context) (int64, error)
	// unseen, when the target can tell, names a resource with a write in
	// etcd that the manager's informers have not delivered yet (see
	// Target.Unseen): only once there is none can empty work queues mean
	// that the in-process controllers have nothing left to do.
	unseen func(context.Context) (string, error)
	// others are the engine's own workers: each names unfinished work.
	others []func() string
	// resume, called once the control plane is quiet, lets Kueue's
	// scheduler go on if it paused after a cycle that evicted workloads
	// (see kueuesetup.SchedulerGate); true means it did, and the settle
	// goes on.
	resume func() bool
	// release, called once the control plane is quiet and Kueue's
	// scheduler has gone on, lets kube-scheduler have the pods the instant
	// made (hold.go); it returns how many, and the settle goes on if any.
	release func(context.Context) (int, error)
	// ignore are in-process controllers whose work does not make the
	// control plane busy (see statusControllers).
	ignore map[string]bool
	// paused tells whether Kueue's scheduler is paused that way: its
	// workloads to try then wait for resume and do not make it busy.
	paused func() bool
	// waits counts the settle polls that found the control plane busy, by
	// kind of reason (see reasonKind): where settling time goes.
	waits map[string]int
}

// kueueInadmissibleCycles reads Kueue's
// kueue_admission_attempts_total{result="inadmissible"}: the scheduling
// cycles that admitted nothing. The counter is process-wide; the settler
// only uses differences.
func kueueInadmissibleCycles() (float64, error) {
	n, err := kueuesetup.SchedulingCycles()
	return n[string(kueuemetrics.AdmissionResultInadmissible)], err
}

// reasonKind is a busy reason without the object it names: "pod waits for
// kube-scheduler", "workqueue_depth{controller=workload}", ...
func reasonKind(busy string) string {
	switch {
	case strings.HasPrefix(busy, "workqueue_depth"), strings.HasPrefix(busy, "controller_runtime_active_workers"):
		if i := strings.Index(busy, "controller="); i >= 0 {
			name := busy[i+len("controller="):]
			if j := strings.IndexAny(name, ",}"); j >= 0 {
				name = name[:j]
			}
			return busy[:strings.IndexByte(busy, '{')] + "{" + name + "}"
		}
		if i := strings.Index(busy, "name="); i >= 0 {
			name := busy[i+len("name="):]
			if j := strings.IndexAny(name, ",}"); j >= 0 {
				name = name[:j]
			}
			return busy[:strings.IndexByte(busy, '{')] + "{" + name + "}"
		}
		return busy
	case strings.HasPrefix(busy, kueueTrying):
		return "Kueue has workloads to try"
	case strings.HasPrefix(busy, "pod "), strings.HasPrefix(busy, "job "), strings.HasPrefix(busy, "statefulset "),
		strings.HasPrefix(busy, "replicaset "), strings.HasPrefix(busy, "deployment "):
		f := strings.Fields(busy)
		if len(f) > 2 {
			return f[0] + " " + strings.Join(f[2:], " ")
		}
	}
	if strings.HasPrefix(busy, informersBehind) {
		return busy // names a resource: few
	}
	if strings.HasPrefix(busy, "Kueue holds ") {
		return "Kueue's quota reservations not yet in the API"
	}
	if f := strings.Fields(busy); len(f) > 1 && strings.HasSuffix(busy, "still hold quota") {
		if _, err := strconv.Atoi(f[0]); err == nil {
			return strings.Join(f[1:], " ")
		}
	}
	if i := strings.IndexByte(busy, ':'); i > 0 {
		return busy[:i]
	}
	return busy
}

// statusControllers are Kueue's controllers that, once the queues are set
// up, only write ClusterQueue, LocalQueue and Cohort status: a step does
// not wait for them (they batch their writes for a second, a simulated
// one in a replay: see kueuesetup.WithSimulatedTimers).
var statusControllers = map[string]bool{"clusterqueue_controller": true, "localqueue_controller": true, "cohort_controller": true}

// statusOnly are the statusControllers a step does not wait for. With
// admission fair sharing the LocalQueue reconciler also keeps each
// LocalQueue's consumed usage, which orders admissions, in Kueue's queue
// manager: a step waits for it.
func statusOnly(admissionFairSharing bool) map[string]bool {
	if !admissionFairSharing {
		return statusControllers
	}
	out := maps.Clone(statusControllers)
	delete(out, "localqueue_controller")
	return out
}

func newSettler(c cache.Cache, direct client.Reader) *settler {
	return &settler{poll: settlePoll, rounds: settleRounds, timeout: settleTimeout, tryGrace: kueueTryGrace, attempts: kueueInadmissibleCycles, cache: c, direct: direct, gatherer: settleGatherer(), index: newBusyIndex(), waits: map[string]int{}}
}

// watch starts the busy index; wait needs it.
func (s *settler) watch(ctx context.Context) error { return s.index.watch(ctx, s.cache) }

// wait polls until the control plane is quiet and also (when not nil)
// names nothing. It returns the reasons it was not, when it gave up. The
// etcd revision is read first: while it changes, the control plane is not
// quiet and the costlier checks (Kueue's metrics) are skipped.
func (s *settler) wait(ctx context.Context, also func() string) (string, error) {
	deadline := time.Now().Add(s.timeout)
	lastRev, rounds := "", 0
	var trying time.Time // since when Kueue has had workloads to try and made no decision
	var decided int64
	var tried float64     // Kueue's inadmissible cycles when trying began
	var tryActive float64 // Kueue's active workloads, all ClusterQueues, then
	var tryReason, tryRev string
	noted := false
	interval := s.poll
	poll := time.NewTimer(interval)
	defer poll.Stop()
	for {
		rev, err := s.revision(ctx)
		if err != nil {
			return "", err
		}
		if s.observe != nil {
			s.observe()
		}
		busy := etcdChanging
		if rev == lastRev {
			busy = ""
			if s.unseen != nil {
				res, err := s.unseen(ctx)
				if err != nil {
					return "", err
				}
				if res != "" {
					busy = informersBehind + ": " + res
				}
			}
			if busy == "" && also != nil {
				busy = also()
			}
			if busy == "" {
				if busy, err = s.busy(ctx); err != nil {
					return "", err
				}
			}
		}
		switch {
		case !kueueChurn(busy):
			trying = time.Time{}
		case s.progress == nil:
		case trying.IsZero() || s.progress() != decided:
			if strings.HasPrefix(busy, kueueTrying) {
				trying, decided, tryReason, tryRev, tryActive = time.Now(), s.progress(), busy, rev, s.active
				if tried, err = s.inadmissibleCycles(); err != nil {
					return "", err
				}
			} else {
				trying = time.Time{}
			}
		case time.Since(trying) < s.tryGrace:
		case !s.retried(tried):
			// Kueue has not run tryAttempts cycles yet: on a loaded machine
			// time alone is no proof that it is stuck.
		default:
			// Before moving on, the gauge is read again, whatever made this
			// poll busy: while Kueue drains a long queue, each of its cycles
			// writes pending messages, so etcd's revision moves at most polls
			// and the gauge that shows the drain is seldom read.
			active, err := s.activeWorkloads()
			if err != nil {
				return "", err
			}
			if draining(tryActive, active) {
				trying, tryActive = time.Now(), active
				if tried, err = s.inadmissibleCycles(); err != nil {
					return "", err
				}
				break
			}
			// Kueue keeps popping and requeuing workloads it cannot admit
			// (a preemptor whose targets are still being evicted, a
			// workload that lost its nomination to another), and may flip
			// their Pending messages, until something changes: nothing will
			// before simulated time moves on.
			s.waits["Kueue retried without progress, moved on"]++
			if !noted {
				noted = true
				s.retriedNotes = append(s.retriedNotes, retriedNote(tryReason, rev != tryRev))
			}
			busy = ""
		}
		if busy == "" {
			rounds++
		} else {
			rounds = 0
			s.waits[reasonKind(busy)]++
		}
		if rounds >= s.rounds {
			went, err := s.goOn(ctx)
			if err != nil {
				return "", err
			}
			if !went {
				return "", nil
			}
			rounds = 0
		}
		lastRev = rev
		if time.Now().After(deadline) {
			if b, err := s.busy(ctx); err == nil && b != "" {
				busy = b
			}
			return busy, nil
		}
		// While the control plane stays busy, polls back off to busyPoll:
		// on a long step they would only take CPU from the control plane
		// (each reads etcd's revision and may gather Kueue's metrics).
		if busy == "" {
			interval = s.poll
		} else {
			interval = min(interval*3/2, max(s.busyPoll, s.poll))
		}
		poll.Reset(interval)
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-poll.C:
		}
	}
}

// goOn lets what waits for a quiet control plane go on: Kueue's
// scheduler, if it paused after a cycle that evicted workloads (resume),
// else the pods held for the instant (release, hold.go). It tells whether
// anything did: the settle then goes on.
func (s *settler) goOn(ctx context.Context) (bool, error) {
	if s.resume != nil && s.resume() {
		s.waits["Kueue's scheduler went on after evicting"]++
		return true, nil
	}
	if s.release == nil {
		return false, nil
	}
	n, err := s.release(ctx)
	if err != nil || n == 0 {
		return false, err
	}
	s.waits["the instant's pods released to kube-scheduler"]++
	return true, nil
}

// inadmissibleCycles reads how many of Kueue's scheduling cycles admitted
// nothing so far (0 when the settler cannot tell).
func (s *settler) inadmissibleCycles() (float64, error) {
	if s.attempts == nil {
		return 0, nil
	}
	return s.attempts()
}

// retried tells whether Kueue has run at least tryAttempts inadmissible
// cycles since it had run since of them (counted when it began trying).
func (s *settler) retried(since float64) bool {
	if s.attempts == nil {
		return true
	}
	n, err := s.attempts()
	return err == nil && n-since >= tryAttempts
}

// retriedNote says what the settle saw when it moved on while Kueue kept
// retrying: reason is Kueue's pending gauge ("Kueue has 1 workloads to try
// in ClusterQueue training"), wrote whether etcd took writes meanwhile. It
// holds nothing that varies with machine speed: it goes into the event log.
func retriedNote(reason string, wrote bool) string {
	msg := reason + ", and its scheduling cycles admitted, preempted and evicted nothing"
	if wrote {
		msg += " while writing to the API (one cause: a pending workload whose message changes at every try, whose status Kueue then rewrites for as long as it stays pending, in a real cluster too)"
	}
	return msg + "; the step moved on, as nothing changes before simulated time does"
}

// draining tells whether Kueue's active queues shrank: fewer workloads are
// left to try, over all ClusterQueues, than when the wait last started over
// (was; now is a fresh read of the gauge). A count that goes back up and
// down again, as a retry loop's may, is no progress. Kueue tries one head
// per ClusterQueue a cycle, so a queue of many workloads it cannot admit
// takes as many cycles to set aside, each writing a pending message: that
// is progress, however long a slow machine takes, not a retry loop, and a
// step that moved on before the queues drained would leave Kueue working
// into the next instant, where that instant's arrivals and ends would meet
// a backlog whose size depends on machine speed.
//
// Two simpler checks miss drains, and each lets large baseline runs write
// different decisions.jsonl: comparing only the ClusterQueue the busy
// reason names (with many draining side by side, the named one empties
// first and the next one named holds more), and counting only polls whose
// busy reason is the gauge itself (a drain's pending-message writes keep
// etcd's revision moving, so most polls never read the gauge).
func draining(was, now float64) bool {
	return now < was
}

// takeRetriedNotes hands over the notes of waits that moved on while Kueue
// kept retrying (see retriedNote), once each.
func (s *settler) takeRetriedNotes() []string {
	out := s.retriedNotes
	s.retriedNotes = nil
	return out
}

// kueueChurn tells whether busy may be Kueue retrying workloads it cannot
// admit: its pending gauge itself, or the writes a retry makes (etcd's
// revision moving, the informers a moment behind it). Kueue rewrites a
// pending workload's QuotaReserved message at each try, and a message that
// alternates (one pod set short, then another) makes every try a write that
// requeues the workload at once; none of that resets tryGrace.
func kueueChurn(busy string) bool {
	return strings.HasPrefix(busy, kueueTrying) || busy == etcdChanging || strings.HasPrefix(busy, informersBehind)
}

// revision is etcd's current revision: any write anywhere changes it. It
// comes from etcd itself where the target can read it (etcdRevision), else
// from a list the API server reads from etcd.
func (s *settler) revision(ctx context.Context) (string, error) {
	if s.etcdRevision != nil {
		rev, err := s.etcdRevision(ctx)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(rev, 10), nil
	}
	var l corev1.NamespaceList
	if err := s.direct.List(ctx, &l, client.Limit(1)); err != nil {
		return "", fmt.Errorf("reading the etcd revision: %w", err)
	}
	return l.ResourceVersion, nil
}

// busy names something that is still going on, or returns "".
func (s *settler) busy(ctx context.Context) (string, error) {
	for _, f := range s.others {
		if b := f(); b != "" {
			return b, nil
		}
	}
	if b, err := s.inProcess(); b != "" || err != nil {
		return b, err
	}
	return s.outOfProcess(ctx)
}

// inProcess reads the work queues of every in-process controller (Kueue's,
// kueue-sim's) and Kueue's queue of workloads it has yet to try.
func (s *settler) inProcess() (string, error) {
	s.active = 0
	mfs, err := s.gatherer.Gather()
	if err != nil {
		return "", fmt.Errorf("reading controller metrics: %w", err)
	}
	for _, mf := range mfs {
		switch mf.GetName() {
		case "workqueue_depth", "controller_runtime_active_workers":
			for _, m := range mf.GetMetric() {
				if m.GetGauge().GetValue() > 0 && !s.ignore[label(m, "controller")] && !s.ignore[label(m, "name")] {
					return fmt.Sprintf("%s{%s} = %g", mf.GetName(), labels(m), m.GetGauge().GetValue()), nil
				}
			}
		case "kueue_pending_workloads":
			if s.paused != nil && s.paused() {
				continue
			}
			var first string
			if s.active, first = activeIn(mf); first != "" {
				return first, nil
			}
		}
	}
	return "", nil
}

// activeWorkloads reads Kueue's active workloads over all ClusterQueues
// from its pending gauge (see draining).
func (s *settler) activeWorkloads() (float64, error) {
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
// with any ("" if none).
func activeIn(mf *dto.MetricFamily) (total float64, first string) {
	for _, m := range mf.GetMetric() {
		if n := m.GetGauge().GetValue(); label(m, "status") == "active" && n > 0 {
			total += n
			if first == "" {
				first = fmt.Sprintf(kueueTryingFormat, n, label(m, "cluster_queue"))
			}
		}
	}
	return total, first
}

// outOfProcess checks that kube-scheduler and kube-controller-manager have
// caught up with what they were given, from the busy index the informers
// keep (see quiet_index.go).
func (s *settler) outOfProcess(context.Context) (string, error) {
	return s.index.first(), nil
}

// jobBusy tells whether kube-controller-manager still owes a Job work:
// creating or deleting its pods, or counting the ones that ended.
func jobBusy(j *batchv1.Job, active, terminal map[string]int) string {
	key := j.Namespace + "/" + j.Name
	if finished(j) {
		return ""
	}
	if terminal[key] > int(j.Status.Succeeded+j.Status.Failed) {
		return "job " + key + ": kube-controller-manager has not counted its ended pods"
	}
	if j.Spec.Completions != nil && j.Status.Succeeded >= *j.Spec.Completions {
		return "job " + key + ": kube-controller-manager has not marked it complete"
	}
	if backoff := ptr.Deref(j.Spec.BackoffLimit, 6); j.Status.Failed > backoff {
		return "job " + key + ": kube-controller-manager has not marked it failed"
	}
	suspended := j.Spec.Suspend != nil && *j.Spec.Suspend
	if suspended && active[key] > 0 {
		return "job " + key + ": kube-controller-manager is deleting the pods of the suspended job"
	}
	if !suspended && j.Spec.Parallelism != nil {
		want := int(*j.Spec.Parallelism)
		if j.Spec.Completions != nil {
			if left := int(*j.Spec.Completions) - int(j.Status.Succeeded); left < want {
				want = left
			}
		}
		if active[key] < want {
			return "job " + key + ": kube-controller-manager has not created its pods"
		}
	}
	return ""
}

func finished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// unschedulable tells whether kube-scheduler tried p and found no node.
// kube-apiserver marks a pod created with scheduling gates PodScheduled
// False with reason SchedulingGated, and leaves that once the gates are
// gone, until kube-scheduler writes its own: such a pod waits for
// kube-scheduler.
func unschedulable(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason != corev1.PodReasonSchedulingGated {
			return true
		}
	}
	return false
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
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
