package harness

import (
	"io"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// Option configures Run.
type Option func(*options)

type options struct {
	clock *engine.VirtualClock
	out   io.Writer

	// The replay (engine options).
	seed      *int64
	prune     bool
	realtime  bool
	events    io.Writer
	decisions io.Writer
	progress  func(engine.Progress)

	// The target.
	kubeconfig   string
	kwokNodes    bool
	prefix       string
	keep         bool
	runRoot      string
	slowKueue    time.Duration
	installTools bool
	hook         ControlPlaneHook

	// Seams the package's tests replace: how the target starts and how the
	// engine replays on it.
	start  startFunc
	replay replayFunc
}

func defaultOptions() options {
	return options{out: io.Discard, start: startTarget, replay: replay}
}

// WithClock runs on c instead of a clock of Run's own. c must be unused:
// the control plane's controllers are built on it.
func WithClock(c *engine.VirtualClock) Option { return func(o *options) { o.clock = c } }

// WithOutput writes the run's status lines to w: how long the control
// plane took to start or the cluster to connect, the clean-up of a run on
// an existing cluster, and the tools' build output (WithInstallTools).
// Default: discarded.
func WithOutput(w io.Writer) Option { return func(o *options) { o.out = w } }

// WithSeed overrides the scenario's seed (engine.WithSeed).
func WithSeed(seed int64) Option { return func(o *options) { o.seed = &seed } }

// WithPruning deletes each finished workload's objects as the run goes
// (engine.WithPruning).
func WithPruning(on bool) Option { return func(o *options) { o.prune = on } }

// WithRealtime paces the replay to the wall clock (engine.WithRealtime),
// with the clock's wall timers armed (VirtualClock.WallTimers).
func WithRealtime(on bool) Option { return func(o *options) { o.realtime = on } }

// WithEventLog writes every event to w (engine.WithEventLog); nil: none.
func WithEventLog(w io.Writer) Option { return func(o *options) { o.events = w } }

// WithDecisionLog writes the decisions to w (engine.WithDecisionLog); nil:
// none.
func WithDecisionLog(w io.Writer) Option { return func(o *options) { o.decisions = w } }

// WithProgress receives the replay's progress after every simulated
// instant (engine.WithProgress); nil: none.
func WithProgress(f func(engine.Progress)) Option { return func(o *options) { o.progress = f } }

// WithKubeconfig replays on the existing cluster of the kubeconfig at path
// instead of the embedded control plane; "" keeps the embedded one.
func WithKubeconfig(path string) Option { return func(o *options) { o.kubeconfig = path } }

// WithKwokNodes makes the scenario's node pools as KWOK fake nodes on the
// existing cluster (remote.WithKwokNodes), deleted afterwards unless
// WithKeep.
func WithKwokNodes(on bool) Option { return func(o *options) { o.kwokNodes = on } }

// WithNamespacePrefix prefixes the run's namespaces on the existing cluster
// with p; "" is remote's default, "ks-<run id>-".
func WithNamespacePrefix(p string) Option { return func(o *options) { o.prefix = p } }

// WithKeep leaves what the run made on the existing cluster (namespaces,
// workloads, queues, KWOK nodes) when it ends; Kueue and the platform stop
// all the same.
func WithKeep(on bool) Option { return func(o *options) { o.keep = on } }

// WithRunRoot puts the embedded control plane's run folder under dir;
// "" is procs.DefaultRunRoot().
func WithRunRoot(dir string) Option { return func(o *options) { o.runRoot = dir } }

// WithSlowKueue slows each reconcile of Kueue's Workload, LocalQueue and
// job-integration reconcilers on the embedded control plane by d of wall
// time, as on a far busier machine (cluster.WithSlowKueue); 0: not slowed.
func WithSlowKueue(d time.Duration) Option { return func(o *options) { o.slowKueue = d } }

// WithInstallTools first builds the control-plane binaries missing from the
// binary folder (sim/tools), writing the build's output to WithOutput's
// writer. The embedded control plane's start is timed from after it; a run
// on an existing cluster needs no binaries and builds none.
func WithInstallTools(on bool) Option { return func(o *options) { o.installTools = on } }

// WithControlPlane calls hook with the control plane around the replay
// (see ControlPlaneHook).
func WithControlPlane(hook ControlPlaneHook) Option { return func(o *options) { o.hook = hook } }

// validate refuses the options meant for the other target than the one
// chosen, before anything starts.
func (o *options) validate() error {
	if o.kubeconfig == "" {
		for _, c := range []struct {
			option string
			set    bool
		}{{"WithKwokNodes", o.kwokNodes}, {"WithNamespacePrefix", o.prefix != ""}, {"WithKeep", o.keep}} {
			if c.set {
				return &InvalidError{Err: &ConflictError{Option: c.option}}
			}
		}
		return nil
	}
	if o.slowKueue > 0 {
		return &InvalidError{Err: &ConflictError{Option: "WithSlowKueue", Embedded: true}}
	}
	return nil
}

// engineOptions are the options the replay runs with: the caller's, and
// nothing else, so that a run's decisions depend on them alone.
func (o *options) engineOptions() []engine.Option {
	var opts []engine.Option
	if o.seed != nil {
		opts = append(opts, engine.WithSeed(*o.seed))
	}
	opts = append(opts, engine.WithPruning(o.prune))
	if o.realtime {
		opts = append(opts, engine.WithRealtime())
	}
	if o.events != nil {
		opts = append(opts, engine.WithEventLog(o.events))
	}
	if o.decisions != nil {
		opts = append(opts, engine.WithDecisionLog(o.decisions))
	}
	if o.progress != nil {
		opts = append(opts, engine.WithProgress(o.progress))
	}
	return opts
}
