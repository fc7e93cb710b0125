package upgrade

import (
	"fmt"
	"io"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/reports/compare"
	"github.com/kueue-sim/kueue-sim/sim/expect"
)

// WriteJUnit writes the verdict as JUnit XML for CI: one suite, "<scenario>
// upgrade <from> -> <to>", with a test case per metric a rule judged (a
// breach fails it) and a passing test case "decisions" that counts the
// workloads deciding differently, which are for review, never a failure.
// Without the caller's thresholds (Gated false) no case fails.
func (r *Report) WriteJUnit(w io.Writer) error {
	var cases []expect.Result
	for _, row := range r.Metrics.Rows {
		if !judged(row) {
			continue
		}
		msg := fmt.Sprintf("%s %s, %s %s", r.From, compare.Value(row.Kind, row.Base), r.To, compare.Value(row.Kind, row.New))
		if row.Allowed != "" {
			msg += ", allowed " + row.Allowed
		}
		if row.Note != "" {
			msg += ": " + row.Note
		}
		cases = append(cases, expect.Result{Name: row.ID, Check: "threshold", Passed: row.Status != compare.Breach || !r.Gated, Message: msg})
	}
	cases = append(cases, expect.Result{Name: "decisions", Check: "decisions", Passed: true,
		Message: fmt.Sprintf("%d of %d workloads decide differently (see %s)", len(r.Workloads), r.Compared, MarkdownFile)})
	return reports.WriteJUnit(w, reports.JUnitSuite{
		Scenario:     fmt.Sprintf("%s upgrade %s -> %s", r.Scenario, r.From, r.To),
		Seed:         r.Seed,
		KueueVersion: r.To,
		Results:      cases,
	})
}

// judged tells whether a rule judged the row, so that it is a JUnit test
// case: breached rows and rows with a limit. Rows no rule checks are
// information.
func judged(r compare.Row) bool {
	return r.Status == compare.Breach || r.Allowed != ""
}
