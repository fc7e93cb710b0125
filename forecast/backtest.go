package forecast

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kueue-sim/kueue-sim/importer/kube"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// A backtest says how honest a forecast from a cluster's history is. It
// replays a scenario once as the recorded run, then for each of a few
// workloads of that run cuts the run at the workload's arrival, imports
// the history up to the cut as `sim forecast --kubeconfig` imports a live
// cluster, forecasts the workload from there, and sets the forecast
// beside the wait the recorded run gave it.

// BacktestOption changes a backtest.
type BacktestOption func(*backtestOptions)

type backtestOptions struct {
	targets, runs, parallel int
	seed                    *int64
	work                    string
}

// WithTargets is how many workloads are forecast (default 10).
func WithTargets(k int) BacktestOption { return func(o *backtestOptions) { o.targets = k } }

// WithBacktestRuns is how many seeds each forecast replays (default 20).
func WithBacktestRuns(n int) BacktestOption { return func(o *backtestOptions) { o.runs = n } }

// WithBacktestParallel replays this many of a forecast's runs at once
// (default 1).
func WithBacktestParallel(n int) BacktestOption { return func(o *backtestOptions) { o.parallel = n } }

// WithBacktestSeed is the recorded run's seed (default: the scenario's).
func WithBacktestSeed(seed int64) BacktestOption { return func(o *backtestOptions) { o.seed = &seed } }

// WithBacktestWorkDir keeps the recorded run in dir/actual and each cut in
// dir/cut-I/ (its Workload dump, job file, imported scenario and runs); by
// default they go to a temporary folder that is removed.
func WithBacktestWorkDir(dir string) BacktestOption { return func(o *backtestOptions) { o.work = dir } }

// BacktestResult is a backtest's answer: each target's forecast beside
// what happened, and how well the forecasts did overall.
type BacktestResult struct {
	Scenario     string `json:"scenario"`
	KueueVersion string `json:"kueueVersion,omitempty"`
	// Seed is the recorded run's.
	Seed int64 `json:"seed"`
	// RunsPerTarget is the runs asked for each forecast (a cut's scenario
	// that draws nothing at random replays once).
	RunsPerTarget int              `json:"runsPerTarget"`
	Targets       []BacktestTarget `json:"targets"`
	// Inside counts the targets whose actual wait is inside their
	// forecast's p10–p90 band; Calibration is their share.
	Inside      int     `json:"inside"`
	Calibration float64 `json:"calibration"`
	// MedianAbsErrorSeconds is the median (nearest rank) of |p50 − actual|
	// over the Compared targets, those whose p50 and actual wait are both
	// finite; nil when there is none.
	MedianAbsErrorSeconds *float64 `json:"medianAbsErrorSeconds"`
	Compared              int      `json:"compared"`
}

// BacktestTarget is one workload's forecast at its arrival and its actual
// wait.
type BacktestTarget struct {
	// Workload is namespace/name in the recorded run.
	Workload   string  `json:"workload"`
	CutSeconds float64 `json:"cutSeconds"`
	// ActualWaitSeconds is from its arrival to its first admission in the
	// recorded run; nil when the run never admitted it (longer than any).
	ActualWaitSeconds *float64 `json:"actualWaitSeconds"`
	// P10, P50 and P90 are the forecast's (Summary), over Runs runs.
	P10  *float64 `json:"p10WaitSeconds"`
	P50  *float64 `json:"p50WaitSeconds"`
	P90  *float64 `json:"p90WaitSeconds"`
	Runs int      `json:"runs"`
	// Inside: P10 <= actual <= P90, a nil percentile standing for longer
	// than any wait.
	Inside bool `json:"inside"`
}

// Backtest replays scenarioFile once as the recorded run, picks its
// targets (pickTargets) and forecasts each from the history before its
// arrival, with runs as Run makes them. Bad input is an *InputError or a
// *scenarios.Error.
func Backtest(ctx context.Context, scenarioFile string, replay ReplayFunc, opts ...BacktestOption) (*BacktestResult, error) {
	o := backtestOptions{targets: 10, runs: 20, parallel: 1}
	for _, opt := range opts {
		opt(&o)
	}
	switch {
	case o.targets < 1:
		return nil, &InputError{Err: fmt.Errorf("--targets %d: give 1 or more", o.targets)}
	case o.runs < 1:
		return nil, &InputError{Err: fmt.Errorf("--runs %d: give 1 or more", o.runs)}
	}
	s, err := scenarios.LoadFile(scenarioFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &InputError{Err: err}
	} else if err != nil {
		return nil, err
	}
	work := o.work
	if work == "" {
		if work, err = os.MkdirTemp("", "kueue-sim-backtest-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	seed := int64(1)
	if s.Seed != nil {
		seed = *s.Seed
	}
	if o.seed != nil {
		seed = *o.seed
	}
	actual := filepath.Join(work, "actual")
	if err := os.MkdirAll(actual, 0o755); err != nil {
		return nil, err
	}
	if err := replay(ctx, scenarioFile, seed, actual); err != nil {
		return nil, fmt.Errorf("the recorded run (seed %d): %w", seed, err)
	}
	run, err := readRun(actual)
	if err != nil {
		return nil, fmt.Errorf("the recorded run: %w", err)
	}
	targets := pickTargets(run, o.targets)
	if len(targets) == 0 {
		return nil, &InputError{Err: fmt.Errorf("%s: the recorded run has no workload arriving between its first and last 20%% of arrivals to forecast: give a scenario with more arrivals", scenarioFile)}
	}
	res := &BacktestResult{Scenario: scenarioFile, KueueVersion: run.KueueVersion, Seed: seed, RunsPerTarget: o.runs}
	for i, w := range targets {
		c := cut{index: i, dir: filepath.Join(work, fmt.Sprintf("cut-%d", i)), scenarioFile: scenarioFile, scenario: s, run: run, target: w}
		t, err := c.forecast(ctx, replay, o)
		if err != nil {
			return nil, fmt.Errorf("forecasting %s at %s: %w", w.Name, w.Arrived, err)
		}
		res.Targets = append(res.Targets, t)
	}
	res.score()
	return res, nil
}

// pickTargets picks k workloads evenly by arrival order among those that
// arrived after the first 20% and before the last 20% of the run's
// arrivals: the middle ones have a history before them and a future after
// them. Refused workloads never waited and are not picked.
func pickTargets(run *record.Run, k int) []*record.Workload {
	var arrived []*record.Workload
	for _, w := range run.Workloads {
		if w.Refused == nil {
			arrived = append(arrived, w)
		}
	}
	sort.SliceStable(arrived, func(i, j int) bool {
		if arrived[i].Arrived != arrived[j].Arrived {
			return arrived[i].Arrived < arrived[j].Arrived
		}
		return arrived[i].Name < arrived[j].Name
	})
	n := len(arrived)
	middle := arrived[n/5 : n-n/5]
	if k >= len(middle) {
		return middle
	}
	out := make([]*record.Workload, k)
	for j := range out {
		out[j] = middle[(2*j+1)*len(middle)/(2*k)]
	}
	return out
}

// cut is one target's forecast from the history before its arrival.
type cut struct {
	index        int
	dir          string
	scenarioFile string
	scenario     *scenarios.Scenario
	run          *record.Run
	target       *record.Workload
}

// forecast writes the history at the cut, imports it, forecasts the
// target from it and compares with the recorded run.
func (c cut) forecast(ctx context.Context, replay ReplayFunc, o backtestOptions) (BacktestTarget, error) {
	at := c.target.Arrived
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return BacktestTarget{}, err
	}
	history, err := historyAt(c.run, c.scenario, at)
	if err != nil {
		return BacktestTarget{}, err
	}
	if len(history) == 0 {
		return BacktestTarget{}, fmt.Errorf("no workload arrived before it")
	}
	dump := filepath.Join(c.dir, "workloads.yaml")
	if err := writeHistory(dump, history); err != nil {
		return BacktestTarget{}, err
	}
	dir := filepath.Join(c.dir, "cluster")
	imp, err := kube.FromWorkloadFiles([]string{dump}, kube.WorkloadsOptions{Cluster: c.scenarioFile, Dir: dir,
		Name: fmt.Sprintf("cut-%d", c.index), Remaining: true, Now: BacktestOrigin.Add(at)})
	if err != nil {
		return BacktestTarget{}, fmt.Errorf("importing the history: %w", err)
	}
	if err := imp.Write(dir); err != nil {
		return BacktestTarget{}, err
	}
	st, err := streamOf(c.scenario, c.target)
	if err != nil {
		return BacktestTarget{}, err
	}
	job, fopts, err := c.job(st)
	if err != nil {
		return BacktestTarget{}, err
	}
	fopts = append(fopts, WithRuns(o.runs), WithParallel(o.parallel), WithWorkDir(c.dir))
	f, err := Run(ctx, Request{Jobs: []string{job}, Scenario: filepath.Join(dir, kube.ScenarioFile), At: imp.At}, replay, fopts...)
	if err != nil {
		return BacktestTarget{}, err
	}
	sum := f.Alternatives[0].Jobs[0].Summary
	t := BacktestTarget{Workload: c.target.Name, CutSeconds: at.Seconds(), ActualWaitSeconds: actualWait(c.target),
		P10: sum.P10, P50: sum.P50, P90: sum.P90, Runs: sum.Runs}
	t.Inside = inside(t.ActualWaitSeconds, t.P10, t.P90)
	return t, nil
}

// job is the target's job file and the options that place it: its
// stream's template, sent to the stream's queue and namespace, or else a
// raw Workload written in the cut's folder.
func (c cut) job(st *scenarios.Stream) (string, []Option, error) {
	ns, _, _ := strings.Cut(c.target.Name, "/")
	if st.Template != nil && st.Template.File != "" {
		path := st.Template.File
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(c.scenarioFile), path)
		}
		job, err := LoadJob(path)
		if err != nil {
			return "", nil, err
		}
		opts := []Option{WithQueue(queueOf(st, c.scenario))}
		if job.Namespace == "" {
			opts = append(opts, WithNamespace(ns))
		}
		return path, opts, nil
	}
	path := filepath.Join(c.dir, "job.yaml")
	return path, nil, writeTargetJob(path, c.target, st, c.scenario)
}

// actualWait is w's wait from arrival to first admission, nil when it was
// never admitted.
func actualWait(w *record.Workload) *float64 {
	if !w.Admitted() {
		return nil
	}
	v := (w.Admissions[0].T.D() - w.Arrived).Seconds()
	return &v
}

// inside tells whether p10 <= actual <= p90, nil standing for longer than
// any wait: a never-admitted target is inside a band without upper end.
func inside(actual, p10, p90 *float64) bool {
	return orInf(p10) <= orInf(actual) && orInf(actual) <= orInf(p90)
}

// orInf is a wait, nil standing for longer than any.
func orInf(p *float64) float64 {
	if p == nil {
		return math.Inf(1)
	}
	return *p
}

// score counts the targets inside their band and the median error of the
// p50s.
func (r *BacktestResult) score() {
	var errs []float64
	r.Inside = 0
	for _, t := range r.Targets {
		if t.Inside {
			r.Inside++
		}
		if t.P50 != nil && t.ActualWaitSeconds != nil {
			errs = append(errs, math.Abs(*t.P50-*t.ActualWaitSeconds))
		}
	}
	if len(r.Targets) > 0 {
		r.Calibration = float64(r.Inside) / float64(len(r.Targets))
	}
	sort.Float64s(errs)
	r.Compared = len(errs)
	r.MedianAbsErrorSeconds = percentile(errs, len(errs), 50)
}
