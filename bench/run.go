package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/harness"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
)

// Figures are what one measured run gives.
type Figures struct {
	Scenario  string
	Workloads int
	Steps     int
	// Wall is the replay's wall time, the control plane's start excluded;
	// Settling the part spent waiting for the control plane to settle.
	Wall, Settling time.Duration
	// SettleWaits counts the settle polls that found the control plane
	// busy, by kind of reason.
	SettleWaits map[string]int
	// Simulated is the simulated time the replay covered.
	Simulated time.Duration
	// PeakRSS is the peak resident memory of the whole process tree;
	// PeakRSSBy what each process (by name) held at the run's own peak
	// sample (Spawn's parent samples more often and may see a higher
	// total).
	PeakRSS   int64
	PeakRSSBy map[string]int64 `json:",omitempty"`
	// Pruned says finished workloads were deleted as the run went
	// (engine.WithPruning); Decisions is the SHA-256 of its
	// decisions.jsonl: runs of one scenario, size and seed give the same,
	// pruned or not.
	Pruned    bool
	Decisions string
	// GC is the garbage-collector settings the tree ran with (gcSettings;
	// empty under Go's defaults).
	GC string `json:",omitempty"`
	// CPU is the CPU seconds each process of the tree used during the
	// replay, by name ("sim" is kueue-sim with Kueue in it).
	CPU map[string]float64 `json:",omitempty"`
	// Writes are kube-apiserver's write requests during the replay, also
	// per resource.
	Writes           int64
	WritesByResource map[string]int64
	// Webhooks is kube-apiserver's time in each admission webhook during
	// the replay.
	Webhooks map[string]WebhookCost `json:",omitempty"`
	// KueueCycles are Kueue's scheduling cycles during the replay, by
	// result (its kueue_admission_attempts_total: "success",
	// "inadmissible").
	KueueCycles map[string]float64 `json:",omitempty"`
	// Load is how long workloads waited for admission and how often Kueue
	// evicted, to set beside the harness's (see Load).
	Load Load
}

// WorkloadsPerSecond is simulated workloads per wall second.
func (f Figures) WorkloadsPerSecond() float64 { return float64(f.Workloads) / f.Wall.Seconds() }

// WritesPerWorkload is API writes per workload.
func (f Figures) WritesPerWorkload() float64 { return float64(f.Writes) / float64(f.Workloads) }

// CyclesPerWorkload is Kueue's scheduling cycles per workload.
func (f Figures) CyclesPerWorkload() float64 {
	var n float64
	for _, v := range f.KueueCycles {
		n += v
	}
	return n / float64(f.Workloads)
}

// WritesPerSecond is the API write rate the replay sustained.
func (f Figures) WritesPerSecond() float64 { return float64(f.Writes) / f.Wall.Seconds() }

func (f Figures) String() string {
	hash := f.Decisions
	if len(hash) > 12 {
		hash = hash[:12]
	}
	pruned := "kept"
	if f.Pruned {
		pruned = "pruned"
	}
	if f.GC != "" {
		pruned += " " + f.GC
	}
	return fmt.Sprintf("%-28s finished %-6s %6d workloads %7.1fs wall (%.0f%% settling) %8.1f wl/s  peak RSS %6.0f MiB (%s)  CPU (%s)  %5.1f writes/wl (%5.0f/s; %v)  %d steps, simulated %s, decisions %s; Kueue cycles %.1f/wl (%v); webhooks (%s); %v; busy polls %v",
		f.Scenario, pruned, f.Workloads, f.Wall.Seconds(), 100*f.Settling.Seconds()/max(f.Wall.Seconds(), 1e-9), f.WorkloadsPerSecond(), float64(f.PeakRSS)/(1<<20),
		formatRSS(f.PeakRSSBy), formatCPU(f.CPU), f.WritesPerWorkload(), f.WritesPerSecond(), f.WritesByResource, f.Steps, f.Simulated, hash, f.CyclesPerWorkload(), f.KueueCycles, formatWebhooks(f.Webhooks), f.Load, f.SettleWaits)
}

// Options of a measured run.
type Options struct {
	// Prune deletes finished workloads as the run goes (sim run
	// --prune-finished).
	Prune bool
	// EventLog receives the run's events (nil: none).
	EventLog io.Writer
	// APIServerProfile, when set, receives kube-apiserver's CPU profile of
	// the replay's first APIServerProfileFor (30 s when zero).
	APIServerProfile    string
	APIServerProfileFor time.Duration
	// APIServerProfileAfter delays that profile's start into the replay.
	APIServerProfileAfter time.Duration
	// APIServerHeap, when set, receives kube-apiserver's heap profile
	// (/debug/pprof/heap) at the end of the replay, where a replay's
	// memory peaks.
	APIServerHeap string
	// KueueLog, when set, receives Kueue's log at verbosity KueueLogV,
	// stamped in simulated time (kueuelog.go).
	KueueLog  io.Writer
	KueueLogV int
}

// Run replays s on a fresh embedded control plane and measures it.
func Run(ctx context.Context, s *scenarios.Scenario, o Options) (Figures, error) {
	fig := Figures{Scenario: s.Name, GC: environmentGC(), Pruned: o.Prune}
	for _, w := range s.Workloads {
		fig.Workloads += int(*w.Count)
	}
	clock := &engine.VirtualClock{}
	if o.KueueLog != nil {
		logKueue(o.KueueLog, o.KueueLogV, clock)
	}
	decisions := sha256.New()
	rssAll := sampleRSS(time.Second) // Spawn's parent samples more often, from outside
	// Ends the sampling when the run fails before the replay; a second
	// Stop after measure's is harmless.
	defer rssAll.Stop()
	res, err := harness.Run(ctx, s, harness.WithClock(clock), harness.WithPruning(o.Prune),
		harness.WithDecisionLog(decisions), harness.WithEventLog(o.EventLog),
		harness.WithControlPlane(measure(&fig, o, rssAll)))
	if err != nil {
		return fig, err
	}
	fig.Wall, fig.Settling, fig.Steps, fig.SettleWaits = res.Wall, res.Settling, res.Steps, res.SettleWaits
	fig.Decisions = hex.EncodeToString(decisions.Sum(nil))
	if res.Run != nil {
		fig.Simulated = res.Run.End
		fig.Load = runLoad(res.Run)
	}
	return fig, nil
}

// measure is Run's hook on the control plane: it reads kube-apiserver's
// and Kueue's counters and starts the profiles just before the replay, and
// once it ends stops the memory and CPU sampling and reads the counters
// again, so that fig holds what the replay alone cost.
func measure(fig *Figures, o Options, rssAll *rssSampler) harness.ControlPlaneHook {
	return func(ctx context.Context, cp *cluster.ControlPlane) (func(*engine.Result, error) error, error) {
		rawBefore, err := apiMetrics(ctx, cp.Config)
		if err != nil {
			return nil, err
		}
		before, beforeBy, err := countWrites(rawBefore)
		if err != nil {
			return nil, err
		}
		webhooksBefore, err := webhookCosts(rawBefore)
		if err != nil {
			return nil, err
		}
		cyclesBefore, err := kueuesetup.SchedulingCycles()
		if err != nil {
			return nil, err
		}
		rssAll.cpu.mark(os.Getpid())
		profiled := profileAPIServer(ctx, cp, o)
		return func(_ *engine.Result, runErr error) error {
			if err := profiled(); err != nil && runErr == nil {
				return err
			}
			if err := apiServerHeap(ctx, cp, o.APIServerHeap); err != nil && runErr == nil {
				return err
			}
			fig.PeakRSS = rssAll.Stop()
			fig.PeakRSSBy = rssAll.PeakBy()
			fig.CPU = rssAll.cpu.byName()
			if runErr != nil {
				return nil
			}
			rawAfter, err := apiMetrics(ctx, cp.Config)
			if err != nil {
				return err
			}
			if p := os.Getenv("KUEUESIM_BENCH_METRICS_DUMP"); p != "" {
				_ = os.WriteFile(p, rawAfter, 0o644)
			}
			after, afterBy, err := countWrites(rawAfter)
			if err != nil {
				return err
			}
			webhooksAfter, err := webhookCosts(rawAfter)
			if err != nil {
				return err
			}
			fig.Webhooks = webhooksSince(webhooksBefore, webhooksAfter)
			cyclesAfter, err := kueuesetup.SchedulingCycles()
			if err != nil {
				return err
			}
			fig.KueueCycles = cyclesSince(cyclesBefore, cyclesAfter)
			fig.Writes = after - before
			fig.WritesByResource = map[string]int64{}
			for r, n := range afterBy {
				if d := n - beforeBy[r]; d > 0 {
					fig.WritesByResource[r] = d
				}
			}
			return nil
		}, nil
	}
}

// profileAPIServer starts reading kube-apiserver's CPU profile (its
// /debug/pprof/profile) into o.APIServerProfile, when set; the function it
// returns, called when the replay ends, waits for a profile under way and
// says whether it was written. A profile due to start after the replay
// ended is not taken (the replay was shorter than
// o.APIServerProfileAfter), and the file is not written.
func profileAPIServer(ctx context.Context, cp *cluster.ControlPlane, o Options) func() error {
	if o.APIServerProfile == "" {
		return func() error { return nil }
	}
	d := o.APIServerProfileFor
	if d <= 0 {
		d = 30 * time.Second
	}
	done, ended := make(chan error, 1), make(chan struct{})
	go func() {
		done <- func() error {
			select {
			case <-time.After(o.APIServerProfileAfter):
			case <-ended:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
			cs, err := kubernetes.NewForConfig(cp.Config)
			if err != nil {
				return fmt.Errorf("profiling kube-apiserver: %w", err)
			}
			raw, err := cs.Discovery().RESTClient().Get().AbsPath("/debug/pprof/profile").
				Param("seconds", strconv.Itoa(int(d.Seconds()))).DoRaw(ctx)
			if err != nil {
				return fmt.Errorf("profiling kube-apiserver: %w", err)
			}
			return os.WriteFile(o.APIServerProfile, raw, 0o644)
		}()
	}()
	return func() error { close(ended); return <-done }
}

// apiServerHeap writes kube-apiserver's heap profile into path, when set.
func apiServerHeap(ctx context.Context, cp *cluster.ControlPlane, path string) error {
	if path == "" {
		return nil
	}
	cs, err := kubernetes.NewForConfig(cp.Config)
	if err != nil {
		return fmt.Errorf("reading kube-apiserver's heap: %w", err)
	}
	raw, err := cs.Discovery().RESTClient().Get().AbsPath("/debug/pprof/heap").DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("reading kube-apiserver's heap: %w", err)
	}
	return os.WriteFile(path, raw, 0o644)
}
