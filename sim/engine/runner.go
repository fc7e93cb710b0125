package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/expect"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
	"github.com/kueue-sim/kueue-sim/sim/record"
	"github.com/kueue-sim/kueue-sim/sim/settle"
)

// Target is the cluster a run drives.
type Target struct {
	// Client writes and reads through to the API server.
	Client client.Client
	// Cache is an informer cache on the same cluster.
	Cache cache.Cache
	// FinishPod ends a running pod (the fake kubelet's Finish).
	FinishPod func(ctx context.Context, pod client.ObjectKey, phase corev1.PodPhase) error
	// Revision reads etcd's revision directly (the embedded control
	// plane); nil reads it through the API server.
	Revision func(context.Context) (int64, error)
	// DecisionRevision reads the revision of etcd's last write that can
	// change a decision (not Kueue's ClusterQueue, LocalQueue and Cohort
	// status, leases or Events); nil: steps settle on Revision.
	DecisionRevision func(context.Context) (int64, error)
	// Unseen names a resource with a write in etcd that seen says the
	// informers have not delivered yet, or "" (the embedded control
	// plane's cluster.ControlPlane.Unseen); nil: steps settle after a
	// longer quiet pause instead.
	Unseen func(ctx context.Context, seen func(resource string) (int64, bool)) (string, error)
	// Reserving reads how many workloads hold quota in a ClusterQueue in
	// Kueue's scheduler cache; nil: the settle cannot see Kueue's
	// admissions in flight.
	Reserving func(clusterQueue string) (int, bool)
	// Shares reads Kueue's weighted shares in process; nil records none.
	Shares ShareReader
	// PendingCounts reads Kueue's pending-workload counts per ClusterQueue
	// in process; nil records none.
	PendingCounts PendingReader
	// Gate holds the in-process Kueue's scheduler while an instant is
	// applied; nil runs without holding it (decisions may then depend on
	// how fast Kueue sees each arrival).
	Gate *kueuesetup.SchedulerGate
	// Requeues runs the in-process Kueue's requeuing of inadmissible
	// workloads at simulated times (requeue.go); nil: Kueue batches them
	// on its own.
	Requeues Requeues
	// AdmissionFairSharing: the in-process Kueue runs admission fair
	// sharing, whose usage its LocalQueue reconciler keeps
	// (settle.StatusOnly).
	AdmissionFairSharing bool
}

// Progress is reported after every simulated instant.
type Progress struct {
	Sim, End                     time.Duration
	Arrived, Admitted, Pending   int
	Finished, Refused, Preempted int
}

// Result is what a run produced.
type Result struct {
	Seed         int64
	Run          *record.Run
	Expectations []expect.Result
	Steps        int
	Wall         time.Duration
	// Settling is the part of Wall spent waiting for the control plane to
	// settle after the actions of each step; SettleWaits counts the polls
	// that found it busy, by kind of reason.
	Settling    time.Duration
	SettleWaits map[string]int
}

// Passed tells whether every expectation held.
func (r *Result) Passed() bool {
	for _, e := range r.Expectations {
		if !e.Passed {
			return false
		}
	}
	return true
}

// Runner replays one scenario on a Target.
type Runner struct {
	s         *scenarios.Scenario
	seed      int64
	t         Target
	clock     *VirtualClock
	realtime  bool
	wallStart time.Time // realtime: the wall time of simulated time 0
	progress  func(Progress)
	events    *record.Writer
	decisions *record.Writer

	obs        *observer
	shares     *shareObserver
	counted    *pendingObserver
	order      *QueueOrder
	settle     *settle.Settler
	index      *settle.Index     // what kube-scheduler and kube-controller-manager owe, and the held pods
	seen       *settle.SeenMarks // nil unless the target tells what the informers have not seen
	evict      *evictor
	queue      timeline
	all        []record.Event
	lqToCQ     map[string]string // namespace/localqueue → ClusterQueue
	priorities map[string]int32
	counts     Progress
	steps      int
	pending    int // workloads pending now (see endStep)
	prune      bool
	settling   time.Duration
	toPrune    []*wlState
	// retriedSeen: the settle's notes on Kueue retrying without progress
	// already in the event log (see settle.Settler.TakeRetriedNotes).
	retriedSeen map[string]bool
	// requeuePlanned: a requeue instant is in the queue (requeue.go).
	requeuePlanned bool
	// wakePlanned: the times of the wake instants in the queue (wake.go).
	wakePlanned map[time.Duration]bool
	// arrivalSeq is each arrival's place in the plan, by namespace/name:
	// the order the instant's pods go to kube-scheduler in (hold.go).
	arrivalSeq map[string]int
}

// Option configures a Runner.
type Option func(*Runner)

// WithSeed overrides the scenario's seed.
func WithSeed(seed int64) Option { return func(r *Runner) { r.seed = seed } }

// WithProgress receives progress after every simulated instant.
func WithProgress(f func(Progress)) Option { return func(r *Runner) { r.progress = f } }

// WithEventLog writes every event, with simulated and wall time, to w.
func WithEventLog(w io.Writer) Option { return func(r *Runner) { r.events = record.NewWriter(w) } }

// WithDecisionLog writes the decisions, simulated time only, to w.
func WithDecisionLog(w io.Writer) Option {
	return func(r *Runner) { r.decisions = record.NewWriter(w) }
}

// New prepares a run of s on t. clock must be the clock the target's
// kueue-sim controllers stamp status with.
func New(s *scenarios.Scenario, t Target, clock *VirtualClock, opts ...Option) *Runner {
	r := &Runner{s: s, seed: *s.Seed, t: t, clock: clock, order: clock.order(),
		lqToCQ: s.LocalQueueTargets(), priorities: s.PriorityValues(), retriedSeen: map[string]bool{}}
	for _, o := range opts {
		o(r)
	}
	r.obs = newObserver(clock, t.Cache, s)
	r.shares = newShareObserver(clock, t.Shares, s)
	r.counted = newPendingObserver(clock, t.PendingCounts, s)
	r.order.setOwners(t.Cache)
	r.evict = newEvictor(t.Client, t.Cache, clock)
	r.obs.evicted = r.evict.add
	r.index = settle.NewIndex(heldOnly)
	if t.Unseen != nil {
		r.seen = settle.NewSeenMarks()
	}
	r.settle = settle.New(r.settleConfig())
	return r
}

// Run replays the scenario. On ctx's end it returns what was recorded so
// far with ctx's error.
func (r *Runner) Run(ctx context.Context) (*Result, error) {
	began := time.Now()
	res := &Result{Seed: r.seed}
	defer func() { res.Wall = time.Since(began) }()
	if err := r.obs.watch(ctx, r.t.Cache, r.seen, settle.ResourceOf(r.t.Client)); err != nil {
		return res, err
	}
	if err := r.index.Watch(ctx, r.t.Cache); err != nil {
		return res, err
	}
	arrivals, err := Plan(r.s, r.seed)
	if err != nil {
		return res, err
	}
	if r.seen != nil {
		if err := r.seen.Watch(ctx, r.t.Cache, settle.ResourceOf(r.t.Client), append(append(settle.SeenObjects(), r.streamObjects(arrivals)...), r.changeObjects()...)); err != nil {
			return res, err
		}
		// The first call starts the control plane's watch of etcd: from
		// here on, every write the run causes is followed.
		if _, err := r.t.Unseen(ctx, r.seen.Get); err != nil {
			return res, err
		}
	}
	evictCtx, stopEvict := context.WithCancel(ctx)
	defer stopEvict()
	go r.evict.run(evictCtx)
	if err := r.setUp(ctx); err != nil {
		return res, err
	}
	if r.t.Gate != nil {
		r.t.Gate.LockStep(true)
		defer r.t.Gate.LockStep(false)
		// Between instants the gate holds the scheduler: within one, its
		// cycles take no simulated time, and Kueue's wall-clock sleep after
		// a cycle that admits nothing only delays the replay.
		r.t.Gate.NoBackoff(!r.realtime)
		defer r.t.Gate.NoBackoff(false)
		defer r.t.Gate.Release() // each step ends with the scheduler parked (park.go)
	}
	// Once the queues are set up, Kueue's status writes for them (batched
	// for a second after every change) decide nothing: steps settle
	// without waiting for them, where the target can tell those writes
	// apart (Target.DecisionRevision).
	r.settle.DecisionsOnly()
	r.arrivalSeq = make(map[string]int, len(arrivals))
	for i, a := range arrivals {
		r.arrivalSeq[a.Team.Namespace+"/"+a.Name] = i
	}
	position := 0
	for i := range arrivals {
		if i > 0 && arrivals[i].At != arrivals[i-1].At {
			position = 0
		}
		r.queue.push(&item{at: arrivals[i].At, act: actArrive, arrival: &arrivals[i], position: position})
		position++
	}
	r.planChanges()
	r.counts.End = r.planEnd(arrivals)
	counts, err := r.counted.take()
	if err != nil {
		return res, err
	}
	if err := r.write(append(append([]record.Event{r.header()}, r.shares.take()...), counts...)); err != nil {
		return res, err
	}

	var runErr error
	for !r.queue.empty() && !r.onlyWakesLeft() {
		r.planWake() // a wait Kueue asked for between steps (realtime runs)
		if r.skipIdleRequeue(ctx) || r.skipDeadWake() {
			continue
		}
		t := r.queue.next()
		if r.s.End != nil && t > r.s.End.Duration {
			break
		}
		if runErr = r.pace(ctx, t); runErr != nil {
			break
		}
		if runErr = r.step(ctx, t); runErr != nil {
			break
		}
	}
	if runErr == nil && r.s.End != nil {
		r.clock.Set(r.s.End.Duration)
	}
	end := record.Event{T: record.Duration(r.spanEnd(runErr)), Type: record.TypeEnd}
	if runErr != nil {
		end.Reason, end.Message = "Interrupted", runErr.Error()
	}
	if err := r.write([]record.Event{end}); err != nil && runErr == nil {
		runErr = err
	}
	res.Run = record.Build(r.all)
	res.Steps, res.Settling, res.SettleWaits = r.steps, r.settling, r.settle.Waits()
	if runErr == nil {
		res.Expectations = expect.Evaluate(r.s, res.Run)
	}
	return res, runErr
}

// step applies the actions due at t with Kueue's scheduler held, waits
// until Kueue has queued the instant's arrivals and the control plane is
// quiet, lets Kueue schedule, waits again, and records what happened.
func (r *Runner) step(ctx context.Context, t time.Duration) error {
	fired := r.clock.advance(t)
	r.steps++
	var extra []record.Event
	waitQuiet := func(also func() settle.Busy) error {
		began := time.Now()
		defer func() { r.settling += time.Since(began) }()
		busy, err := r.settle.Wait(ctx, also)
		for _, note := range r.settle.TakeRetriedNotes() {
			// Once per run and reason: a workload that stays pending would
			// repeat it at every step.
			if !r.retriedSeen[note] {
				r.retriedSeen[note] = true
				extra = append(extra, record.Event{Type: record.TypeWarning, Reason: "KueueRetriedWithoutProgress", Message: note})
			}
		}
		if err == nil && !busy.IsZero() {
			extra = append(extra, record.Event{Type: record.TypeWarning, Reason: "NotSettled",
				Message: fmt.Sprintf("the control plane was still busy after %s (%s); results of this step may depend on machine speed", settle.Timeout, busy)})
		}
		return err
	}
	if r.t.Gate != nil {
		r.t.Gate.Hold()
	}
	items := r.queue.popAt(t)
	r.woken(items)
	if r.reconcilesFirst(fired, items) {
		// What the clock's move handed Kueue comes first in the
		// instant (wake.go).
		if err := waitQuiet(nil); err != nil {
			return err
		}
	}
	r.requeue(ctx, items)
	changed, err := r.applyChanges(ctx, items)
	extra = append(extra, changed...)
	var arrived []*wlState
	if err == nil {
		arrived, err = r.applyAll(ctx, items)
	}
	if err == nil && r.t.Gate != nil {
		// Everything of this instant reaches Kueue's queues before Kueue
		// schedules any of it, as if it all happened at once.
		err = waitQuiet(r.notQueued(arrived, func(msg string) {
			extra = append(extra, record.Event{Type: record.TypeWarning, Reason: "NotQueued", Message: msg})
		}))
	}
	if r.t.Gate != nil {
		r.t.Gate.Release()
	}
	if err != nil {
		return err
	}
	if err := waitQuiet(nil); err != nil {
		return err
	}
	if err := r.park(ctx, waitQuiet); err != nil {
		return err
	}
	r.planRequeue()
	r.planWake()
	return r.endStep(extra)
}
