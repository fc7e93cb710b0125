package forecast

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// ReplayFunc replays the scenario file with seed and writes its event log
// to dir/events.jsonl: the caller's run pipeline (a `sim run` process in
// `sim forecast`, since a process runs one Kueue; a fake in unit tests).
// A run whose scenario's own expectations fail is still a run.
type ReplayFunc func(ctx context.Context, scenario string, seed int64, dir string) error

// EventsFile is the event log a ReplayFunc writes in its folder.
const EventsFile = "events.jsonl"

// Request is one forecast: the jobs, the scenario they are submitted
// into, and when.
type Request struct {
	// Jobs are the job files, each of one or more YAML documents, one job
	// a document; "-" reads them from Stdin. The jobs are submitted in
	// this order, each file's in the order written.
	Jobs []string
	// Stdin is what "-" reads.
	Stdin io.Reader
	// Scenario is the scenario file.
	Scenario string
	// At is the simulated time the jobs are submitted at.
	At time.Duration
}

// StdinFile is the name "-" is saved as in the forecast's folder, and
// StdinName the one messages know it by.
const (
	StdinFile = "stdin.yaml"
	StdinName = "<stdin>"
)

// Option changes a forecast.
type Option func(*options)

type options struct {
	duration, horizon time.Duration
	runs, parallel    int
	seed              *int64
	namespace, queue  string
	tries             []Try
	work              string
}

// WithDuration is how long the job runs once all its pods run (default
// one hour): it decides whom the job holds back, not when it starts.
func WithDuration(d time.Duration) Option { return func(o *options) { o.duration = d } }

// WithHorizon is how far past its submission the forecast looks (default
// seven days): a job not admitted by then is "not within the horizon".
func WithHorizon(d time.Duration) Option { return func(o *options) { o.horizon = d } }

// WithRuns is how many seeds a scenario that draws at random is replayed
// with (default 20). A scenario that draws nothing at random is replayed
// once: every seed gives the same run.
func WithRuns(n int) Option { return func(o *options) { o.runs = n } }

// WithParallel replays this many runs at once (default 1), each with its
// own control plane.
func WithParallel(n int) Option { return func(o *options) { o.parallel = n } }

// WithSeed is the first run's seed (default: the scenario's); run i has
// seed+i.
func WithSeed(seed int64) Option { return func(o *options) { o.seed = &seed } }

// WithNamespace submits a job that names no namespace there.
func WithNamespace(ns string) Option { return func(o *options) { o.namespace = ns } }

// WithQueue submits the job to this LocalQueue instead of its label's.
func WithQueue(q string) Option { return func(o *options) { o.queue = q } }

// WithTries forecasts each alternative too.
func WithTries(t ...Try) Option { return func(o *options) { o.tries = append(o.tries, t...) } }

// WithWorkDir keeps each run's scenario and event log in dir
// (dir/runs/A-R/), where `sim run` replays the same run again; by default
// they go to a temporary folder that is removed.
func WithWorkDir(dir string) Option { return func(o *options) { o.work = dir } }

// Forecast is the answer: the jobs, and their forecast as written, then
// once per Try.
type Forecast struct {
	Jobs         []JobInfo     `json:"jobs"`
	Scenario     string        `json:"scenario"`
	KueueVersion string        `json:"kueueVersion,omitempty"`
	AtSeconds    float64       `json:"atSeconds"`
	Random       bool          `json:"random"`
	Alternatives []Alternative `json:"alternatives"`
}

// JobInfo is one job of the forecast.
type JobInfo struct {
	// File is the job file as given ("<stdin>" for "-"), and Document the
	// job's document in it: from 1, 0 in a file of one object.
	File     string `json:"file"`
	Document int    `json:"document,omitempty"`
	Kind     string `json:"kind"`
	// Workload is the job's namespace/name in the runs of the jobs as
	// written.
	Workload string `json:"workload"`
}

// Where is the job's file, and its document in a file of several.
func (j JobInfo) Where() string {
	if j.Document > 0 {
		return fmt.Sprintf("%s, document %d", j.File, j.Document)
	}
	return j.File
}

// Alternative is the forecast of one version of the jobs.
type Alternative struct {
	// Name is "as written" or the Try.
	Name string `json:"name"`
	// Jobs is each job's forecast, in the order of Forecast.Jobs.
	Jobs []JobForecast `json:"jobs"`
}

// JobForecast is one job's forecast in one alternative.
type JobForecast struct {
	// LocalQueue is namespace/name; Workload the job's namespace/name in
	// the runs.
	LocalQueue string    `json:"localQueue"`
	Workload   string    `json:"workload"`
	Runs       []Outcome `json:"runs"`
	Summary    Summary   `json:"summary"`
}

// run is one replay to make.
type run struct {
	alt, index int
	seed       int64
	dir        string
	// workloads are the jobs' workloads, in the order of Forecast.Jobs.
	workloads []string
}

// Run makes the forecast: it loads the jobs and the scenario, checks that
// each job can be submitted there, and replays the scenario with the jobs
// added once per seed and alternative. Bad input is an *InputError or a
// *scenarios.Error (exit code 2 in `sim forecast`).
func Run(ctx context.Context, req Request, replay ReplayFunc, opts ...Option) (*Forecast, error) {
	o := options{duration: time.Hour, horizon: 7 * 24 * time.Hour, runs: 20, parallel: 1}
	for _, opt := range opts {
		opt(&o)
	}
	switch {
	case len(req.Jobs) == 0:
		return nil, &InputError{Err: errors.New("no job file: give one or more, or - to read the jobs from stdin")}
	case len(slices.DeleteFunc(slices.Clone(req.Jobs), func(p string) bool { return p != "-" })) > 1:
		return nil, &InputError{Err: errors.New("- given twice: stdin is read once; give it once")}
	case req.At < 0:
		return nil, &InputError{Err: fmt.Errorf("--at %s: give a time from the scenario's start, 0 or later", req.At)}
	case o.duration <= 0:
		return nil, &InputError{Err: fmt.Errorf("--duration %s: give a positive duration", o.duration)}
	case o.horizon <= 0:
		return nil, &InputError{Err: fmt.Errorf("--horizon %s: give a positive duration", o.horizon)}
	case o.runs < 1:
		return nil, &InputError{Err: fmt.Errorf("--runs %d: give 1 or more", o.runs)}
	}
	base, err := scenarios.LoadFile(req.Scenario)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(req.Scenario)
	if err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	end, err := endOf(base, req.At, o.horizon)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	work := o.work
	if work == "" {
		if work, err = os.MkdirTemp("", "kueue-sim-forecast-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	jobs, err := loadJobs(req, work)
	if err != nil {
		return nil, err
	}
	f := &Forecast{Scenario: req.Scenario, AtSeconds: req.At.Seconds(), Random: random(base)}
	runs := o.runs
	if !f.Random {
		runs = 1
	}
	seed0 := int64(0)
	if base.Seed != nil {
		seed0 = *base.Seed
	}
	if o.seed != nil {
		seed0 = *o.seed
	}
	d := &deriver{jobs: jobs, names: streamNames(base, len(jobs)), base: base, data: data, req: req, end: end, work: work, o: o}
	var todo []run
	for a, t := range append([]Try{{}}, o.tries...) {
		alt, derived, err := d.alternative(t, a)
		if err != nil {
			if t != (Try{}) {
				return nil, &InputError{Err: fmt.Errorf("--try %s: %w", t, err)}
			}
			return nil, err
		}
		f.Alternatives = append(f.Alternatives, alt)
		workloads := make([]string, len(alt.Jobs))
		for i, jf := range alt.Jobs {
			workloads[i] = jf.Workload
		}
		for i := 0; i < runs; i++ {
			dir := filepath.Join(work, "runs", fmt.Sprintf("%d-%d", a, i))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(dir, "scenario.yaml"), derived, 0o644); err != nil {
				return nil, err
			}
			todo = append(todo, run{alt: a, index: i, seed: seed0 + int64(i), dir: dir, workloads: workloads})
		}
	}
	for i, j := range jobs {
		f.Jobs = append(f.Jobs, JobInfo{File: j.display(), Document: j.Doc, Kind: j.Kind, Workload: f.Alternatives[0].Jobs[i].Workload})
	}
	outcomes, version, err := replayAll(ctx, todo, replay, o.parallel)
	if err != nil {
		return nil, err
	}
	f.KueueVersion = version
	for i, r := range todo {
		for k, o := range outcomes[i] {
			jf := &f.Alternatives[r.alt].Jobs[k]
			jf.Runs = append(jf.Runs, o)
		}
	}
	for a := range f.Alternatives {
		for k := range f.Alternatives[a].Jobs {
			jf := &f.Alternatives[a].Jobs[k]
			jf.Summary = summarize(jf.Runs)
		}
	}
	return f, nil
}

// replayAll replays every run, parallel at a time, and reads each one's
// outcome; the first failure stops the rest.
func replayAll(ctx context.Context, todo []run, replay ReplayFunc, parallel int) ([][]Outcome, string, error) {
	outcomes := make([][]Outcome, len(todo))
	versions := make([]string, len(todo))
	// The first failed run stops the others: a forecast needs every run.
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(parallel, 1))
	for i, r := range todo {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			var err error
			outcomes[i], versions[i], err = replayOne(ctx, r, replay)
			if err != nil {
				return fmt.Errorf("run %s (seed %d): %w", filepath.Base(r.dir), r.seed, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, "", err
	}
	return outcomes, versions[0], nil
}

// replayOne replays one run, keeps its event log in its folder and reads
// each job's outcome from it.
func replayOne(ctx context.Context, r run, replay ReplayFunc) ([]Outcome, string, error) {
	if err := replay(ctx, filepath.Join(r.dir, "scenario.yaml"), r.seed, r.dir); err != nil {
		return nil, "", err
	}
	rec, err := readRun(r.dir)
	if err != nil {
		return nil, "", err
	}
	out := make([]Outcome, len(r.workloads))
	for i, w := range r.workloads {
		out[i] = outcomeOf(rec, w)
		out[i].Seed = r.seed
	}
	return out, rec.KueueVersion, nil
}

// readRun reads the event log a ReplayFunc wrote in dir. A log without
// its End event is an error: the run stopped before it ended.
func readRun(dir string) (*record.Run, error) {
	fh, err := os.Open(filepath.Join(dir, EventsFile))
	if err != nil {
		return nil, fmt.Errorf("reading the run's event log: %w", err)
	}
	defer fh.Close()
	evs, err := record.Read(fh)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", fh.Name(), err)
	}
	if len(evs) == 0 || evs[len(evs)-1].Type != record.TypeEnd {
		return nil, fmt.Errorf("%s ends before the run did", fh.Name())
	}
	return record.Build(evs), nil
}

// Summary is a job's runs in one alternative in figures.
type Summary struct {
	Runs int `json:"runs"`
	// Admitted counts the runs that admitted the job within the horizon,
	// AtOnce those that admitted it when it was submitted.
	Admitted int `json:"admitted"`
	AtOnce   int `json:"atOnce"`
	// P10, P50 and P90 are the waits to admission over all runs, a run
	// that never admitted it counting as longer than any; nil when that
	// run decides the percentile ("not within the horizon").
	P10 *float64 `json:"p10WaitSeconds"`
	P50 *float64 `json:"p50WaitSeconds"`
	P90 *float64 `json:"p90WaitSeconds"`
	// ClusterQueue and Flavors are the admission most runs made
	// (resource=flavor, comma-separated), and Share how many runs made it.
	ClusterQueue string `json:"clusterQueue,omitempty"`
	Flavors      string `json:"flavors,omitempty"`
	Share        int    `json:"share,omitempty"`
	// LetInBy and Preempted count, per workload, the runs where it let the
	// job in or was preempted for it.
	LetInBy   []Count `json:"letInBy,omitempty"`
	Preempted []Count `json:"preempted,omitempty"`
	// Pending is Kueue's last reason in the first run that never admitted
	// the job.
	Pending string `json:"pending,omitempty"`
	Refused string `json:"refused,omitempty"`
}

// Count is a workload and the runs it was named in.
type Count struct {
	Workload string `json:"workload"`
	Runs     int    `json:"runs"`
}

func summarize(runs []Outcome) Summary {
	s := Summary{Runs: len(runs)}
	var waits []float64
	places := map[string]int{}
	let, pre := map[string]int{}, map[string]int{}
	for _, o := range runs {
		if !o.Admitted {
			if s.Pending == "" {
				s.Pending = o.Pending
			}
			if s.Refused == "" {
				s.Refused = o.Refused
			}
			continue
		}
		s.Admitted++
		if o.Wait == 0 {
			s.AtOnce++
		}
		waits = append(waits, o.Wait.Seconds())
		places[o.ClusterQueue+"\x00"+flavorsOf(o.Flavors)]++
		for _, w := range o.LetInBy {
			let[w]++
		}
		for _, w := range o.Preempted {
			pre[w]++
		}
	}
	sort.Float64s(waits)
	s.P10, s.P50, s.P90 = percentile(waits, len(runs), 10), percentile(waits, len(runs), 50), percentile(waits, len(runs), 90)
	for k, n := range places {
		cq, fl, _ := strings.Cut(k, "\x00")
		if n > s.Share || (n == s.Share && k < s.ClusterQueue+"\x00"+s.Flavors) {
			s.ClusterQueue, s.Flavors, s.Share = cq, fl, n
		}
	}
	s.LetInBy, s.Preempted = counts(let), counts(pre)
	return s
}

// percentile is the p-th percentile (nearest rank) of n runs' waits, of
// which the sorted waits admitted; nil when it falls on a run that never
// admitted the job.
func percentile(waits []float64, n, p int) *float64 {
	if n == 0 {
		return nil
	}
	rank := (p*n + 99) / 100
	if rank < 1 {
		rank = 1
	}
	if rank > len(waits) {
		return nil
	}
	v := waits[rank-1]
	return &v
}

func flavorsOf(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, ",")
}

func counts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for w, n := range m {
		out = append(out, Count{Workload: w, Runs: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Runs != out[j].Runs {
			return out[i].Runs > out[j].Runs
		}
		return out[i].Workload < out[j].Workload
	})
	return out
}
