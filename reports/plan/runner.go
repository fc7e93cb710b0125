package plan

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/sim/simrun"
)

// Options of a sweep.
type Options struct {
	// Sim is the sim binary to run each combination with (one Kueue per
	// process).
	Sim string
	// Out is the plan's folder: plan.json, plan.md, plan.svg and runs/.
	Out string
	// Parallel bounds the runs at once (default 1).
	Parallel int
	// Shard runs one part of the sweep (default: all of it).
	Shard Shard
	// RunArgs are added to every `sim run`, e.g. --seed 3 or --prune-finished.
	RunArgs []string
	// Log receives a line as each run starts and ends.
	Log io.Writer
}

// Run runs every combination of the sweep (or of one shard) and writes
// the plan's files.
func Run(ctx context.Context, scenarioPath string, varies []Vary, o Options) (*Plan, error) {
	data, err := os.ReadFile(scenarioPath)
	if err != nil {
		return nil, fmt.Errorf("reading the scenario: %w", err)
	}
	all, err := Combinations(varies)
	if err != nil {
		return nil, err
	}
	if o.Shard.N == 0 {
		o.Shard = Shard{I: 0, N: 1}
	}
	if o.Parallel < 1 {
		o.Parallel = 1
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	p := &Plan{SchemaVersion: SchemaVersion, Scenario: scenarioPath, Digest: digest(data), Total: len(all)}
	for _, v := range varies {
		p.Vary = append(p.Vary, v.Raw)
	}
	if o.Shard.N > 1 {
		p.Shards = []string{o.Shard.String()}
	}
	mine := o.Shard.Of(all)
	// Write and check every scenario first: a bad value fails at once.
	base := filepath.Base(scenarioPath)
	name := strings.TrimSuffix(base, filepath.Ext(base))
	for _, c := range mine {
		if err := Apply(data, name, varies, c, filepath.Join(o.Out, runDir(c), base), filepath.Dir(scenarioPath)); err != nil {
			return nil, err
		}
	}
	p.Outcomes = make([]Outcome, len(mine))
	var (
		mu   sync.Mutex
		done int
	)
	// A failed run is an outcome, not an error: every run goes on.
	var g errgroup.Group
	g.SetLimit(o.Parallel)
	for i, c := range mine {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				p.Outcomes[i] = Outcome{Combination: c, Dir: runDir(c), ExitCode: -1, Error: "not run: " + err.Error()}
				return nil
			}
			mu.Lock()
			fmt.Fprintf(o.Log, "start #%d: %s\n", c.Index, describe(c))
			mu.Unlock()
			out := runOne(ctx, o, c, filepath.Join(runDir(c), base))
			p.Outcomes[i] = out
			mu.Lock()
			done++
			fmt.Fprintf(o.Log, "done %d/%d: #%d %s in %s\n", done, len(mine), c.Index, verdict(out), time.Duration(out.WallSeconds*float64(time.Second)).Round(time.Second))
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait() // every function returns nil
	p.sortOutcomes()
	p.pickBest()
	if err := p.WriteFiles(o.Out); err != nil {
		return p, err
	}
	return p, ctx.Err()
}

func runDir(c Combination) string { return filepath.Join("runs", fmt.Sprintf("%04d", c.Index)) }

// runOne runs `sim run` on one combination's scenario and reads its report.
func runOne(ctx context.Context, o Options, c Combination, scenario string) Outcome {
	out := Outcome{Combination: c, Dir: runDir(c)}
	dir := filepath.Join(o.Out, out.Dir)
	args := append([]string{"run", filepath.Join(o.Out, scenario), "--report", dir, "--junit", filepath.Join(dir, "junit.xml"), "--progress", "none"}, o.RunArgs...)
	res, err := simrun.Run(ctx, o.Sim, filepath.Join(dir, "run.log"), args...)
	out.WallSeconds, out.ExitCode = res.Wall.Seconds(), res.ExitCode
	if err != nil {
		out.Error = err.Error()
		return out
	}
	r, err := reports.Load(filepath.Join(dir, reports.JSONFile))
	if err != nil {
		out.Error = fmt.Sprintf("sim run exited %d without a report: see %s", out.ExitCode, filepath.Join(out.Dir, "run.log"))
		return out
	}
	out.fill(r)
	return out
}

// fill takes the outcome's figures from the run's report.
func (o *Outcome) fill(r *reports.Report) {
	o.Resource = r.Resource
	used, avail := 0.0, 0.0
	for _, f := range r.Flavors {
		if f.Resource == r.Resource {
			o.Capacity += f.Capacity
			used += f.UsedHours
			avail += f.AvailableHours
		}
	}
	if avail > 0 {
		o.Utilization = used / avail
	}
	if len(r.Waits) > 0 {
		o.P90Wait, o.MaxWait = r.Waits[0].P90, r.Waits[0].Max
	}
	for _, e := range r.Expectations {
		if !e.Passed {
			o.Failed = append(o.Failed, e.Name)
		}
	}
	o.Passed = o.ExitCode == 0 && o.Error == "" && len(o.Failed) == 0
}

func verdict(o Outcome) string {
	switch {
	case o.Error != "":
		return "ERROR: " + o.Error
	case o.Passed:
		return "PASS"
	}
	return fmt.Sprintf("FAIL (exit %d; %s)", o.ExitCode, strings.Join(o.Failed, ", "))
}
