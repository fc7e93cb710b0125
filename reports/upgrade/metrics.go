package upgrade

import (
	"fmt"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/reports/compare"
)

// The Markdown and text reports show compare's own table. The HTML page
// and upgrade.json need its cells one by one, which compare keeps to
// itself; these write them the same way.

// metricValue writes a value in its metric's unit, "-" when absent.
func metricValue(k reports.MetricKind, v *float64) string {
	if v == nil {
		return "-"
	}
	switch k.Unit {
	case "ratio":
		return reports.Pct(*v)
	case "index":
		return fmt.Sprintf("%.3f", *v)
	case "seconds":
		return reports.Dur(*v)
	case "count":
		return fmt.Sprintf("%g", *v)
	}
	return reports.Amount("", *v)
}

// metricChange is the difference, with its relative size when the old
// value is not zero; "" when one side is absent.
func metricChange(r compare.Row) string {
	if r.Base == nil || r.New == nil {
		return ""
	}
	d := *r.New - *r.Base
	if d == 0 {
		return "0"
	}
	var s string
	switch r.Kind.Unit {
	case "ratio":
		s = fmt.Sprintf("%+.1fpp", 100*d)
	case "index":
		s = fmt.Sprintf("%+.3f", d)
	default:
		s = metricValue(r.Kind, &d)
		if d > 0 {
			s = "+" + s
		}
	}
	if *r.Base != 0 {
		s += fmt.Sprintf(" (%+.1f%%)", 100*d / *r.Base)
	}
	return s
}

// judged tells whether a rule judged the row, so that it is a JUnit test
// case: breached rows and rows with a limit. Rows no rule checks are
// information.
func judged(r compare.Row) bool {
	return r.Status == compare.Breach || r.Allowed != ""
}
