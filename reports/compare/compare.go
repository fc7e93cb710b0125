package compare

import (
	"fmt"
	"math"

	"github.com/kueue-sim/kueue-sim/reports"
)

// Status of one metric in a comparison.
type Status string

// Statuses.
const (
	// OK: within its rule (or unchanged).
	OK Status = "ok"
	// Breach: beyond its rule; the gate fails.
	Breach Status = "BREACH"
	// Info: moved, but no rule checks it.
	Info Status = "info"
	// Ignored by a rule.
	Ignored Status = "ignored"
	// Added: only in the new report; Removed: only in the baseline.
	Added   Status = "new"
	Removed Status = "gone"
)

// Row is one metric's comparison.
type Row struct {
	ID     string
	Kind   reports.MetricKind
	Base   *float64
	New    *float64
	Status Status
	// Allowed describes the rule's limit, e.g. "-5%" or "≥ 0.8".
	Allowed string
	// Note says what breached and why the rule exists.
	Note string
}

// Moved tells whether the value changed (or appeared or disappeared).
func (r Row) Moved() bool {
	return r.Base == nil || r.New == nil || math.Abs(*r.New-*r.Base) > 1e-9
}

// Result is a whole comparison.
type Result struct {
	Rows     []Row
	Breaches int
	// Notes say what could not be compared and why.
	Notes []string
}

// fairnessMetric is the metric that needs Kueue's weighted shares in both
// logs.
const fairnessMetric = "fair_share_gap"

// Passed tells whether no metric breached its rule.
func (r Result) Passed() bool { return r.Breaches == 0 }

// Compare judges every metric of next against base with t's rules (nil:
// the built-in rules only).
func Compare(base, next *reports.Report, t *Thresholds) Result {
	baseM, nextM := index(base.Metrics()), index(next.Metrics())
	var res Result
	seen := map[string]bool{}
	emit := func(m reports.Metric) {
		id := m.ID()
		if seen[id] {
			return
		}
		seen[id] = true
		row := judge(m, baseM[id], nextM[id], t)
		if row.Status == Breach {
			res.Breaches++
		}
		res.Rows = append(res.Rows, row)
	}
	for _, m := range next.Metrics() {
		emit(m)
	}
	for _, m := range base.Metrics() {
		emit(m)
	}
	if base.KueueVersion != next.KueueVersion && base.KueueVersion != "" && next.KueueVersion != "" {
		res.Notes = append(res.Notes, fmt.Sprintf("Kueue %s decided the baseline and Kueue %s the new run: differences may be the upgrade's", base.KueueVersion, next.KueueVersion))
	}
	baseShares, nextShares := base.SharesObserved(), next.SharesObserved()
	switch {
	case !baseShares && nextShares:
		res.Notes = append(res.Notes, "the baseline holds no weighted shares (its log was recorded before kueue-sim observed Kueue's status.fairSharing.weightedShare): fairness is not compared with it; re-record the baseline (make gate-baseline)")
	case baseShares && !nextShares:
		res.Notes = append(res.Notes, "the new run holds no weighted shares (fair sharing off in cluster.kueue, or a log without Share events): fairness is not compared")
	}
	if baseShares != nextShares {
		for i := range res.Rows {
			if r := &res.Rows[i]; r.Kind.Name == fairnessMetric && r.Status != Breach {
				r.Note = "not compared: only one of the two logs holds weighted shares"
			}
		}
	}
	return res
}

func index(ms []reports.Metric) map[string]*float64 {
	out := map[string]*float64{}
	for _, m := range ms {
		v := m.Value
		out[m.ID()] = &v
	}
	return out
}

// judge applies m's rule to its baseline and new values.
func judge(m reports.Metric, base, next *float64, t *Thresholds) Row {
	kind, _ := reports.Kind(m.Name)
	row := Row{ID: m.ID(), Kind: kind, Base: base, New: next, Status: OK}
	rule := t.ruleFor(m)
	switch {
	case rule != nil && rule.Ignore:
		row.Status = Ignored
		return row
	case rule == nil:
		if row.Moved() {
			row.Status = Info
		}
		return row
	}
	var problems []string
	if next != nil {
		if rule.Min != nil && *next < *rule.Min {
			problems = append(problems, "below the minimum "+format(kind, *rule.Min))
		}
		if rule.Max != nil && *next > *rule.Max {
			problems = append(problems, "above the maximum "+format(kind, *rule.Max))
		}
	}
	row.Allowed = describe(kind, rule, base)
	switch {
	case base == nil:
		row.Status = Added
	case next == nil:
		row.Status = Removed
	case rule.MaxRegression != nil || rule.Slack != nil:
		worse := worsening(kind, *base, *next)
		allowed := 0.0
		if rule.Slack != nil {
			allowed = *rule.Slack
		}
		if rule.MaxRegression != nil {
			allowed = math.Max(allowed, *rule.MaxRegression*math.Abs(*base))
		}
		if worse > allowed+1e-9 {
			problems = append(problems, fmt.Sprintf("worse by %s, more than the %s allowed", format(kind, worse), format(kind, allowed)))
		}
	}
	if len(problems) > 0 {
		row.Status = Breach
		row.Note = joinProblems(problems)
		if rule.Why != "" {
			row.Note += " (" + rule.Why + ")"
		}
	}
	return row
}

// worsening is how much worse next is than base: positive when worse.
func worsening(k reports.MetricKind, base, next float64) float64 {
	switch k.Better {
	case +1:
		return base - next
	case -1:
		return next - base
	}
	return math.Abs(next - base)
}

// describe says what the rule allows, relative to base.
func describe(k reports.MetricKind, r *Rule, base *float64) string {
	var parts []string
	sign := map[int]string{+1: "-", -1: "+", 0: "±"}[k.Better]
	if r.MaxRegression != nil || r.Slack != nil {
		s := ""
		if r.MaxRegression != nil {
			s = fmt.Sprintf("%s%g%%", sign, 100**r.MaxRegression)
		}
		if r.Slack != nil && *r.Slack > 0 {
			if s != "" {
				s += " or "
			}
			s += sign + format(k, *r.Slack)
		}
		parts = append(parts, s)
	}
	if r.Min != nil {
		parts = append(parts, "≥ "+format(k, *r.Min))
	}
	if r.Max != nil {
		parts = append(parts, "≤ "+format(k, *r.Max))
	}
	return joinProblems(parts)
}

func joinProblems(p []string) string {
	out := ""
	for i, s := range p {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

// format writes a value in its metric's unit.
func format(k reports.MetricKind, v float64) string {
	switch k.Unit {
	case "ratio":
		return reports.Pct(v)
	case "index":
		return fmt.Sprintf("%.3f", v)
	case "seconds":
		return reports.Dur(v)
	case "count":
		return fmt.Sprintf("%g", v)
	}
	return reports.Amount("", v)
}
