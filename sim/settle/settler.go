package settle

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Timeout bounds a wait: a step that is not quiet after it is logged as a
// warning and the run goes on.
const Timeout = 2 * time.Minute

// Timings says how a wait polls.
type Timings struct {
	// Poll is the pause between polls while the control plane looks
	// quiet.
	Poll time.Duration
	// BusyPoll is the longest pause while it stays busy; polls back off to
	// it from Poll (never below Poll).
	BusyPoll time.Duration
	// Rounds is how many quiet polls in a row make it quiet.
	Rounds int
	// Timeout: a wait gives up after this long.
	Timeout time.Duration
	// TryGrace is how long Kueue may keep trying without a decision
	// before the retry rule considers moving on.
	TryGrace time.Duration
}

// DefaultTimings: the control plane is quiet when every check passes on
// three consecutive polls 10 ms apart with no write to etcd in between.
func DefaultTimings() Timings {
	return Timings{Poll: 10 * time.Millisecond, Rounds: 3, Timeout: Timeout, TryGrace: kueueTryGrace}
}

// SeenTimings are the timings where the settle knows that every write so
// far has reached the in-process controllers (Config.Unseen): the pause
// that stood in for that knowledge shrinks to two polls 2 ms apart, long
// enough for a shared informer to hand an event it delivered to the
// settle to its other handlers (Kueue's) as well.
func SeenTimings() Timings {
	t := DefaultTimings()
	t.Poll, t.BusyPoll, t.Rounds = 2*time.Millisecond, DefaultTimings().Poll, 2
	return t
}

// Config is everything a Settler reads. Every hook is optional unless
// said otherwise.
type Config struct {
	// Timings: zero means DefaultTimings.
	Timings Timings
	// Clock is wall time (the settle waits for real processes); nil is
	// the real clock.
	Clock clock.Clock
	// Revision reads etcd's revision directly; nil reads it through
	// Direct, which is then required.
	Revision func(context.Context) (int64, error)
	Direct   client.Reader
	// DecisionRevision reads the revision of etcd's last write that can
	// change a decision; once DecisionsOnly is called it replaces
	// Revision, and the controllers in StatusOnly no longer make the
	// control plane busy. Nil: DecisionsOnly changes nothing.
	DecisionRevision func(context.Context) (int64, error)
	StatusOnly       map[string]bool
	// Gatherer reads the work-queue gauges and Kueue's pending gauge; nil
	// gathers this process's (see metrics.go).
	Gatherer prometheus.Gatherer
	// Index keeps what kube-scheduler and kube-controller-manager still
	// owe; the caller starts its Watch. Nil checks nothing out of process.
	Index *Index
	// Observe runs at every poll, on the caller's goroutine: the engine
	// drains its observations there.
	Observe func()
	// Unseen names a resource with a write in etcd that the manager's
	// informers have not delivered yet, or "": only once there is none can
	// empty work queues mean that the in-process controllers have nothing
	// left to do.
	Unseen func(context.Context) (string, error)
	// Others are the engine's own workers: each names unfinished work.
	Others []func() Busy
	// Progress counts the decisions observed so far; nil turns the retry
	// rule off (Kueue trying then stays busy until the timeout).
	Progress func() int64
	// Attempts counts Kueue's scheduling cycles that admitted nothing
	// (KueueInadmissibleCycles); nil lets TryGrace alone decide.
	Attempts func() (float64, error)
	// FixedPointCycles is how many of Kueue's scheduling cycles that
	// admit nothing must follow one another, with no decision and no
	// write to etcd since Kueue began trying, for Kueue to be at a fixed
	// point: each cycle takes the same heads from the same state and
	// comes to the same end, as a StrictFIFO ClusterQueue's head that
	// waits for quota does for as long as it waits. The wait then moves on
	// at once and leaves no note: Kueue has settled. It must exceed the
	// cycles a head's flavor search can take to come round (one per
	// ResourceFlavor); zero, or no Attempts, turns the rule off.
	FixedPointCycles int
	// Resume, called once the control plane is quiet, lets Kueue's
	// scheduler go on if it paused after a cycle that evicted workloads
	// (kueuesetup.SchedulerGate); true means it did, and the wait goes on.
	Resume func() bool
	// Paused tells whether Kueue's scheduler is paused that way, or
	// blocked until the pods of the workloads it admitted are ready
	// (waitForPodsReady's blockAdmission): its workloads to try then wait
	// for Resume, or for a later instant, and do not make it busy.
	Paused func() bool
	// Release, called once the control plane is quiet and Kueue's
	// scheduler has gone on, lets kube-scheduler have the pods the instant
	// made; it returns how many, and the wait goes on if any.
	Release func(context.Context) (int, error)
}

// Settler tells whether the control plane has finished reacting.
type Settler struct {
	cfg      Config
	timings  Timings
	clock    clock.Clock
	gatherer prometheus.Gatherer
	// etcdRevision and ignore are Revision and nothing until
	// DecisionsOnly, DecisionRevision and StatusOnly after.
	etcdRevision func(context.Context) (int64, error)
	ignore       map[string]bool
	// active is Kueue's active workloads over all ClusterQueues, as the
	// last read of its pending gauge found them (see draining).
	active float64
	// retriedNotes: see TakeRetriedNotes.
	retriedNotes []string
	// waits counts the polls that found the control plane busy, by kind of
	// reason (Busy.reasonKind), and what made a wait go on.
	waits map[string]int
}

// New makes a Settler of cfg.
func New(cfg Config) *Settler {
	s := &Settler{cfg: cfg, timings: cfg.Timings, clock: cfg.Clock, gatherer: cfg.Gatherer,
		etcdRevision: cfg.Revision, waits: map[string]int{}}
	if s.timings == (Timings{}) {
		s.timings = DefaultTimings()
	}
	if s.clock == nil {
		s.clock = clock.RealClock{}
	}
	if s.gatherer == nil {
		s.gatherer = settleGatherer()
	}
	return s
}

// DecisionsOnly makes later waits settle on Config.DecisionRevision and
// leave Config.StatusOnly's controllers out, if there is a
// DecisionRevision: once the queues are set up, Kueue's status writes for
// them (batched for a second after every change) decide nothing.
func (s *Settler) DecisionsOnly() {
	if s.cfg.DecisionRevision != nil {
		s.etcdRevision = s.cfg.DecisionRevision
		s.ignore = s.cfg.StatusOnly
	}
}

// Waits counts the polls that found the control plane busy, by kind of
// reason: where settling time goes. The map is live.
func (s *Settler) Waits() map[string]int { return s.waits }

// Tally counts one more wait of kind in Waits, for what the caller waits
// for beside the settle.
func (s *Settler) Tally(kind string) { s.waits[kind]++ }

// TakeRetriedNotes hands over the notes of waits that moved on while Kueue
// kept retrying (see retriedNote), once each.
func (s *Settler) TakeRetriedNotes() []string {
	out := s.retriedNotes
	s.retriedNotes = nil
	return out
}

// Wait polls until the control plane is quiet and also (when not nil)
// names nothing. It returns the reason it was not, when it gave up.
func (s *Settler) Wait(ctx context.Context, also func() Busy) (Busy, error) {
	w := s.begin(also)
	poll := s.clock.NewTimer(w.interval)
	defer poll.Stop()
	for {
		busy, done, err := w.poll(ctx)
		if err != nil || done {
			return busy, err
		}
		poll.Reset(w.interval)
		select {
		case <-ctx.Done():
			return Busy{}, ctx.Err()
		case <-poll.C():
		}
	}
}

// goOn lets what waits for a quiet control plane go on: Kueue's
// scheduler, if it paused after a cycle that evicted workloads (Resume),
// else the pods held for the instant (Release). It tells whether anything
// did: the wait then goes on.
func (s *Settler) goOn(ctx context.Context) (bool, error) {
	if s.cfg.Resume != nil && s.cfg.Resume() {
		s.waits["Kueue's scheduler went on after evicting"]++
		return true, nil
	}
	if s.cfg.Release == nil {
		return false, nil
	}
	n, err := s.cfg.Release(ctx)
	if err != nil || n == 0 {
		return false, err
	}
	s.waits["the instant's pods released to kube-scheduler"]++
	return true, nil
}
