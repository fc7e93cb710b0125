package upgrade

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/reports/compare"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Report is what an upgrade rehearsal found: the same scenario replayed
// on two Kueue releases.
type Report struct {
	Scenario string
	// Seed is the scenario's seed, the same in both runs.
	Seed int64
	// From and To are the Kueue releases that decided each run.
	From, To string
	// Findings are the caller's, in the caller's order.
	Findings []Finding
	// Workloads are the workloads whose decisions differ, sorted by when
	// the runs first part for them.
	Workloads []WorkloadDiff
	// Compared counts the workloads of either run.
	Compared int
	// Metrics judges the new run's metrics against the old run's.
	Metrics compare.Result
	// Gated tells whether the caller's thresholds judge the metrics (sim
	// upgrade --fail-on): only then does a metric past its threshold fail
	// the rehearsal. Without them, sim compare's built-in rules mark what
	// moved, for review.
	Gated bool
}

// Side is one replay: its report (the metrics) and its run (the stories).
type Side struct {
	Report *reports.Report
	Run    *record.Run
}

// Build reads the report folders of the replay on the old release
// (fromDir) and on the new one (toDir) and compares them. Each folder
// holds events.jsonl and, usually, report.json; without report.json the
// report is rebuilt from the events. th judges the metrics (nil: the
// built-in rules).
func Build(fromDir, toDir string, findings []Finding, th *compare.Thresholds) (*Report, error) {
	from, err := LoadSide(fromDir)
	if err != nil {
		return nil, fmt.Errorf("reading the run on the old release: %w", err)
	}
	to, err := LoadSide(toDir)
	if err != nil {
		return nil, fmt.Errorf("reading the run on the new release: %w", err)
	}
	if from.Report.Scenario != to.Report.Scenario || from.Report.Seed != to.Report.Seed {
		return nil, fmt.Errorf("comparing %s with %s: they replay different scenarios (%q seed %d, %q seed %d)", fromDir, toDir,
			from.Report.Scenario, from.Report.Seed, to.Report.Scenario, to.Report.Seed)
	}
	return New(from, to, findings, th), nil
}

// LoadSide reads a report folder.
func LoadSide(dir string) (Side, error) {
	run, results, err := reports.LoadEvents(filepath.Join(dir, reports.EventsFile))
	if err != nil {
		return Side{}, err
	}
	jsonPath := filepath.Join(dir, reports.JSONFile)
	_, err = os.Stat(jsonPath)
	switch {
	case err == nil:
		r, err := reports.Load(jsonPath)
		if err != nil {
			return Side{}, err
		}
		return Side{Report: r, Run: run}, nil
	case errors.Is(err, fs.ErrNotExist):
		return Side{Report: reports.Build(run, results), Run: run}, nil
	}
	return Side{}, fmt.Errorf("reading report: %w", err)
}

// New compares two replays already in memory. A run whose log does not
// name its Kueue release is called "old release" or "new release".
func New(from, to Side, findings []Finding, th *compare.Thresholds) *Report {
	r := &Report{
		Scenario: from.Report.Scenario,
		Seed:     to.Report.Seed,
		From:     release(from, "old release"),
		To:       release(to, "new release"),
		Findings: append([]Finding{}, findings...),
		Metrics:  compare.Compare(from.Report, to.Report, th),
		Gated:    th != nil,
	}
	fromStories, toStories := Stories(from.Run), Stories(to.Run)
	r.Workloads = DiffWorkloads(fromStories, toStories, r.From, r.To)
	names := map[string]bool{}
	for n := range fromStories {
		names[n] = true
	}
	for n := range toStories {
		names[n] = true
	}
	r.Compared = len(names)
	return r
}

func release(s Side, fallback string) string {
	switch {
	case s.Report.KueueVersion != "":
		return s.Report.KueueVersion
	case s.Run.KueueVersion != "":
		return s.Run.KueueVersion
	}
	return fallback
}

// Breached tells whether a metric breached its threshold: the only
// failure an upgrade rehearsal reports. Decisions that differ are what an
// upgrade is expected to bring, for a person to read, not to fail on.
func (r *Report) Breached() bool { return r.Gated && !r.Metrics.Passed() }

// maxVerdictNames bounds the breached metrics a verdict names; the
// metrics section lists them all.
const maxVerdictNames = 5

// Verdict says in a sentence whether the new release passes the
// thresholds, naming the metrics that breached.
func (r *Report) Verdict() string {
	if r.Metrics.Passed() {
		return fmt.Sprintf("PASS: no metric breached its threshold under %s. Decisions that differ are for review, not a failure.", r.To)
	}
	var ids []string
	for _, row := range r.Metrics.Rows {
		if row.Status == compare.Breach {
			ids = append(ids, row.ID)
		}
	}
	names := strings.Join(ids, ", ")
	if len(ids) > maxVerdictNames {
		names = fmt.Sprintf("%s and %d more", strings.Join(ids[:maxVerdictNames], ", "), len(ids)-maxVerdictNames)
	}
	if !r.Gated {
		return fmt.Sprintf("REVIEW: %s moved past sim compare's built-in thresholds under %s: %s. Pass --fail-on FILE to gate on thresholds.", count(r.Metrics.Breaches, "metric"), r.To, names)
	}
	return fmt.Sprintf("FAIL: %s breached under %s: %s.", count(r.Metrics.Breaches, "metric"), r.To, names)
}

// summary is the line under the title: what the rehearsal found.
func (r *Report) summary() string {
	return fmt.Sprintf("%s in the configuration; %d of %d workloads decide differently; %s.",
		count(len(r.Findings), "finding"), len(r.Workloads), r.Compared, breaches(r.Metrics.Breaches, r.Gated))
}

func breaches(n int, gated bool) string {
	switch {
	case n == 0:
		return "no metric breached its threshold"
	case !gated:
		return count(n, "metric") + " past the built-in thresholds"
	case n == 1:
		return "1 metric breached its threshold"
	}
	return fmt.Sprintf("%d metrics breached their thresholds", n)
}
