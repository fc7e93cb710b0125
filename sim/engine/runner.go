package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/expect"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
	"github.com/kueue-sim/kueue-sim/sim/kubelet"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Pacing says whether the engine keeps Kueue's FIFO order among tied
// workloads (Strict) at the cost of up to a wall second per tie, or not
// (Relaxed, for large statistical runs: decision traces then vary between
// runs).
type Pacing string

// Pacing modes.
const (
	Strict  Pacing = "strict"
	Relaxed Pacing = "relaxed"
)

// Target is the cluster a run drives.
type Target struct {
	// Client writes and reads through to the API server.
	Client client.Client
	// Cache is an informer cache on the same cluster.
	Cache cache.Cache
	// FinishPod ends a running pod (the fake kubelet's Finish).
	FinishPod func(ctx context.Context, pod client.ObjectKey, phase corev1.PodPhase) error
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
	pacing    Pacing
	progress  func(Progress)
	events    *record.Writer
	decisions *record.Writer

	obs        *observer
	settle     *settler
	evict      *evictor
	queue      timeline
	all        []record.Event
	lastSecond map[string]time.Time // ordering domain → wall second of its latest Workload
	lqToCQ     map[string]string    // namespace/localqueue → ClusterQueue
	cohortOf   map[string]string
	priorities map[string]int32
	counts     Progress
	steps      int
	pending    int // workloads pending now (see endStep)
	prune      *bool
	settling   time.Duration
	toPrune    []*wlState
}

// Option configures a Runner.
type Option func(*Runner)

// WithSeed overrides the scenario's seed.
func WithSeed(seed int64) Option { return func(r *Runner) { r.seed = seed } }

// WithPacing sets the pacing mode (default Strict).
func WithPacing(p Pacing) Option { return func(r *Runner) { r.pacing = p } }

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
	r := &Runner{s: s, seed: *s.Seed, t: t, clock: clock, pacing: Strict,
		lastSecond: map[string]time.Time{}, lqToCQ: map[string]string{}, cohortOf: map[string]string{}, priorities: map[string]int32{}}
	for _, o := range opts {
		o(r)
	}
	for _, team := range s.Teams {
		for _, lq := range team.LocalQueues {
			r.lqToCQ[team.Namespace+"/"+lq.Name] = lq.ClusterQueue
		}
	}
	for _, cq := range s.Queues.ClusterQueues {
		r.cohortOf[cq.Name] = cq.Cohort
	}
	for _, pc := range s.Queues.PriorityClasses {
		r.priorities[pc.Name] = pc.Value
	}
	r.obs = newObserver(clock, t.Cache, s)
	r.settle = newSettler(t.Cache, t.Client)
	if r.pacing == Relaxed {
		r.settle.poll, r.settle.informerQuiet, r.settle.tryGrace = relaxedPoll, true, relaxedTryGrace
	}
	r.settle.progress = r.obs.decisions.Load
	r.evict = newEvictor(t.Client, clock)
	r.obs.evicted = r.evict.add
	r.settle.others = append(r.settle.others, r.evict.busy)
	return r
}

// Run replays the scenario. On ctx's end it returns what was recorded so
// far with ctx's error.
func (r *Runner) Run(ctx context.Context) (*Result, error) {
	began := time.Now()
	res := &Result{Seed: r.seed}
	defer func() { res.Wall = time.Since(began) }()
	if err := r.obs.watch(ctx, r.t.Cache); err != nil {
		return res, err
	}
	if err := r.settle.watch(ctx); err != nil {
		return res, err
	}
	evictCtx, stopEvict := context.WithCancel(ctx)
	defer stopEvict()
	go r.evict.run(evictCtx)
	if err := r.setUp(ctx); err != nil {
		return res, err
	}
	arrivals, err := Plan(r.s, r.seed)
	if err != nil {
		return res, err
	}
	for i := range arrivals {
		r.queue.push(&item{at: arrivals[i].At, act: actArrive, arrival: &arrivals[i]})
	}
	r.counts.End = r.planEnd(arrivals)
	if err := r.write([]record.Event{r.header()}); err != nil {
		return res, err
	}

	var runErr error
	for !r.queue.empty() {
		t := r.queue.next()
		if r.s.End != nil && t > r.s.End.Duration {
			break
		}
		if runErr = r.step(ctx, t); runErr != nil {
			break
		}
	}
	if runErr == nil && r.s.End != nil {
		r.clock.Set(r.s.End.Duration)
	}
	end := record.Event{T: record.Duration(r.clock.Elapsed()), Type: record.TypeEnd}
	if runErr != nil {
		end.Reason, end.Message = "Interrupted", runErr.Error()
	}
	if err := r.write([]record.Event{end}); err != nil && runErr == nil {
		runErr = err
	}
	res.Run = record.Build(r.all)
	res.Steps, res.Settling, res.SettleWaits = r.steps, r.settling, r.settle.waits
	if runErr == nil {
		res.Expectations = expect.Evaluate(r.s, res.Run)
	}
	return res, runErr
}

// step applies the actions due at t, waits for the control plane to
// settle, and records what it did.
func (r *Runner) step(ctx context.Context, t time.Duration) error {
	r.clock.Set(t)
	r.steps++
	var extra []record.Event
	settle := func() error {
		began := time.Now()
		defer func() { r.settling += time.Since(began) }()
		busy, err := r.settle.wait(ctx)
		if err == nil && busy != "" {
			extra = append(extra, record.Event{Type: record.TypeWarning, Reason: "NotSettled",
				Message: fmt.Sprintf("the control plane was still busy after %s (%s); results of this step may depend on machine speed", settleTimeout, busy)})
		}
		return err
	}
	items := r.queue.popAt(t)
	if r.pacing == Relaxed {
		if err := r.applyAll(ctx, items); err != nil {
			return err
		}
		items = nil
	} else if err := parallel(ctx, 1, r.takePrunes()); err != nil {
		return err
	}
	for i, it := range items {
		if err := r.apply(ctx, it); err != nil {
			return err
		}
		// Strict pacing lets the control plane take in each action before
		// the next one of the same instant, in scenario order: which of two
		// simultaneous arrivals Kueue sees first is then not a race.
		if r.pacing == Strict && i < len(items)-1 {
			if err := settle(); err != nil {
				return err
			}
		}
	}
	if err := settle(); err != nil {
		return err
	}
	return r.endStep(extra)
}

func (r *Runner) apply(ctx context.Context, it *item) error {
	switch it.act {
	case actArrive:
		return r.arrive(ctx, it.arrival)
	case actFinish:
		if it.st.generation != it.generation || it.st.finished || it.st.deleted {
			return nil // preempted or gone since: this run's end is void
		}
		return r.finish(ctx, it.st)
	case actDelete:
		return r.remove(ctx, it.st)
	}
	return nil
}

func (r *Runner) arrive(ctx context.Context, a *Arrival) error {
	submit, err := r.prepareArrival(ctx, a)
	if err != nil {
		return err
	}
	return submit(ctx)
}

// prepareArrival does an arrival's bookkeeping (in step order) and returns
// the submission, which talks to the API server and may run concurrently
// with others of the same instant in relaxed pacing.
func (r *Runner) prepareArrival(ctx context.Context, a *Arrival) (func(context.Context) error, error) {
	obj, err := WorkloadObject(*a, r.priorities)
	if err != nil {
		return nil, err
	}
	cq := r.lqToCQ[a.Team.Namespace+"/"+a.Stream.Queue]
	if hp := r.profileQueue(a.Stream.HardwareProfile); hp != "" {
		cq = r.lqToCQ[a.Team.Namespace+"/"+hp]
	}
	domain := fmt.Sprintf("%s|%d", r.orderingRoot(cq), r.priorities[a.Stream.PriorityClass])
	if err := r.pace(ctx, domain); err != nil {
		return nil, err
	}
	st := r.obs.track(*a, a.Team.Namespace+"/"+a.Name, cq, domain)
	requests := map[string]float64{}
	for res, q := range a.Stream.Requests {
		requests[string(res)] = q.AsApproximateFloat64() * float64(PodCount(a.Stream))
	}
	r.obs.mu.Lock()
	r.obs.emit(st, record.Event{Type: record.TypeArrived, ClusterQueue: cq, Priority: r.priorities[a.Stream.PriorityClass],
		Requests: requests, Pods: PodCount(a.Stream)})
	r.obs.mu.Unlock()
	r.counts.Arrived++
	return func(ctx context.Context) error {
		if err := r.t.Client.Create(ctx, obj); err != nil {
			if apierrors.IsForbidden(err) || apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) {
				r.obs.mu.Lock()
				st.refused = true
				r.obs.touch(st)
				r.obs.emit(st, record.Event{Type: record.TypeRefused, Reason: string(apierrors.ReasonForError(err)), Message: err.Error()})
				r.obs.mu.Unlock()
				return nil
			}
			return fmt.Errorf("submitting %s %s: %w", a.Stream.Kind, st.key, err)
		}
		if a.Stream.RunUntil != nil && a.Stream.RunUntil.Duration > a.At {
			r.queue.push(&item{at: a.Stream.RunUntil.Duration, act: actDelete, st: st})
		}
		if r.pacing == Strict && r.queued(a) {
			return r.awaitWorkload(ctx, st, domain)
		}
		return nil
	}, nil
}

// queued tells whether Kueue will make a Workload for the arrival.
func (r *Runner) queued(a *Arrival) bool {
	return (a.Stream.Queue != "" || a.Stream.HardwareProfile != "") && !a.Team.Unmanaged
}

func (r *Runner) profileQueue(name string) string {
	for _, hp := range r.s.Queues.HardwareProfiles {
		if hp.Name == name {
			return hp.LocalQueue
		}
	}
	return ""
}

// orderingRoot is the cohort tree root of a ClusterQueue, or the
// ClusterQueue itself: workloads in one root compete in one order.
func (r *Runner) orderingRoot(cq string) string {
	cohort := r.cohortOf[cq]
	if cohort == "" {
		return "cq/" + cq
	}
	parents := map[string]string{}
	for _, c := range r.s.Queues.Cohorts {
		parents[c.Name] = c.Parent
	}
	for seen := 0; parents[cohort] != "" && seen < len(parents); seen++ {
		cohort = parents[cohort]
	}
	return "cohort/" + cohort
}

// finish ends a workload's run: its pods succeed (or fail), a long-running
// workload is deleted, a raw Workload is marked Finished.
func (r *Runner) finish(ctx context.Context, st *wlState) error {
	switch st.arrival.Stream.Kind {
	case scenarios.KindWorkload:
		return r.finishWorkload(ctx, st)
	case scenarios.KindNotebook, scenarios.KindInferenceService, scenarios.KindRayCluster:
		return r.remove(ctx, st)
	}
	phase := corev1.PodSucceeded
	if st.arrival.Stream.Fail {
		phase = corev1.PodFailed
	}
	parent, err := WorkloadObject(st.arrival, r.priorities)
	if err != nil {
		return err
	}
	if err := r.t.Client.Get(ctx, client.ObjectKeyFromObject(parent), parent); err != nil {
		return fmt.Errorf("ending %s: %w", st.key, err)
	}
	// In the order that ends the parent last (a RayJob's driver, a
	// PyTorchJob's master); the parent's operator may delete the rest.
	pods, err := fakes.PodsOf(ctx, r.t.Client, parent)
	if err != nil {
		return fmt.Errorf("ending %s: %w", st.key, err)
	}
	for _, p := range pods {
		if p.Status.Phase != corev1.PodRunning {
			continue
		}
		err := r.t.FinishPod(ctx, client.ObjectKeyFromObject(&p), phase)
		if err != nil && !apierrors.IsNotFound(err) && !errors.Is(err, kubelet.ErrNotRunning) {
			return fmt.Errorf("ending %s: %w", st.key, err)
		}
	}
	return nil
}

func (r *Runner) finishWorkload(ctx context.Context, st *wlState) error {
	key := client.ObjectKey{Namespace: st.arrival.Team.Namespace, Name: st.arrival.Name}
	reason, msg := kueue.WorkloadFinishedReasonSucceeded, "kueue-sim: the simulated run ended"
	if st.arrival.Stream.Fail {
		reason = kueue.WorkloadFinishedReasonFailed
	}
	// Kueue writes the same status (e.g. its admission metadata): retry on
	// conflict with the latest object.
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var wl kueue.Workload
		if err := r.t.Client.Get(ctx, key, &wl); err != nil {
			return err
		}
		apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{
			Type: kueue.WorkloadFinished, Status: metav1.ConditionTrue, Reason: reason, Message: msg,
			LastTransitionTime: metav1.NewTime(time.Now()),
		})
		return r.t.Client.Status().Update(ctx, &wl)
	})
	if err != nil {
		return fmt.Errorf("ending %s: %w", st.key, err)
	}
	return nil
}

func (r *Runner) remove(ctx context.Context, st *wlState) error {
	if st.deleted || st.refused {
		return nil
	}
	obj, err := WorkloadObject(st.arrival, r.priorities)
	if err != nil {
		return err
	}
	if err := r.t.Client.Delete(ctx, obj, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("deleting %s: %w", st.key, err)
	}
	r.obs.mu.Lock()
	st.deleted = true
	r.obs.touch(st)
	r.obs.emit(st, record.Event{Type: record.TypeDeleted})
	r.obs.mu.Unlock()
	return nil
}

// endStep records the step's observations, notices workloads that started
// or stopped running, and schedules the ends of runs. It looks only at the
// workloads whose state changed during the step, in key order.
func (r *Runner) endStep(extra []record.Event) error {
	r.obs.mu.Lock()
	evs := append(r.obs.buf, extra...)
	r.obs.buf = nil
	now := r.clock.Elapsed()
	for _, st := range r.obs.takeDirty() {
		running := r.isRunning(st)
		switch {
		case running && !st.running:
			st.running = true
			r.obs.emit(st, record.Event{Type: record.TypeRunning})
			if d := st.arrival.Duration; d > 0 {
				r.queue.push(&item{at: now + d, act: actFinish, st: st, generation: st.generation})
			}
		case !running && st.running && !st.finished && !st.deleted:
			st.running = false
			st.generation++
		}
		r.notePrune(st)
		if p := !st.refused && !st.admitted && !st.finished && !st.deleted && !st.running; p != st.pending {
			st.pending = p
			if p {
				r.pending++
			} else {
				r.pending--
			}
		}
	}
	evs = append(evs, r.obs.buf...)
	r.obs.buf = nil
	r.obs.mu.Unlock()

	for i := range evs {
		r.tally(evs[i])
		if evs[i].T == 0 && evs[i].Type == record.TypeWarning {
			evs[i].T = record.Duration(now)
		}
	}
	r.counts.Sim, r.counts.Pending = now, r.pending
	if err := r.write(evs); err != nil {
		return err
	}
	if r.progress != nil {
		r.progress(r.counts)
	}
	return nil
}

func (r *Runner) isRunning(st *wlState) bool {
	if st.refused || st.finished || st.deleted {
		return false
	}
	if st.arrival.Stream.Kind == scenarios.KindWorkload {
		return st.admitted
	}
	if r.queued(&st.arrival) && !st.admitted {
		return false
	}
	return len(st.runningPods) >= PodCount(st.arrival.Stream)
}

func (r *Runner) tally(e record.Event) {
	switch e.Type {
	case record.TypeAdmitted:
		r.counts.Admitted++
	case record.TypeFinished:
		r.counts.Finished++
	case record.TypeRefused:
		r.counts.Refused++
	case record.TypePreempted:
		r.counts.Preempted++
	}
}

// write appends events to the logs: all of them to the event log, the
// decisions in deterministic order and without wall-clock fields to the
// decision log.
func (r *Runner) write(evs []record.Event) error {
	r.all = append(r.all, evs...)
	var errs []error
	if r.events != nil {
		for _, e := range evs {
			errs = append(errs, r.events.Write(e))
		}
		errs = append(errs, r.events.Flush())
	}
	if r.decisions != nil {
		var ds []record.Event
		for _, e := range evs {
			if record.IsDecision(e.Type) {
				ds = append(ds, record.Decision(e))
			}
		}
		record.SortStep(ds)
		for _, e := range ds {
			errs = append(errs, r.decisions.Write(e))
		}
		errs = append(errs, r.decisions.Flush())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("writing the run's logs: %w", err)
	}
	return nil
}

// planEnd is the simulated time the progress bar runs to.
func (r *Runner) planEnd(arrivals []Arrival) time.Duration {
	if r.s.End != nil {
		return r.s.End.Duration
	}
	var end time.Duration
	for _, a := range arrivals {
		if t := a.At + a.Duration; t > end {
			end = t
		}
	}
	return end
}
