package forecast

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// WriteBacktestJSON writes r as indented JSON.
func WriteBacktestJSON(w io.Writer, r *BacktestResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteBacktestText writes r for a reader: what was backtested, one row
// per target, then the calibration and the median error.
func WriteBacktestText(w io.Writer, r *BacktestResult) error {
	fmt.Fprintf(w, "backtest of %s (recorded run: seed %d, Kueue %s): %d workloads, each forecast at its arrival from the history before it (--runs %d)\n\n",
		r.Scenario, r.Seed, r.KueueVersion, len(r.Targets), r.RunsPerTarget)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKLOAD\tARRIVED AT\tACTUAL WAIT\tP10\tP50\tP90\tRUNS\tINSIDE P10–P90")
	for _, t := range r.Targets {
		actual := "never admitted"
		if t.ActualWaitSeconds != nil {
			actual = wait(t.ActualWaitSeconds)
		}
		inside := "no"
		if t.Inside {
			inside = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", t.Workload, t.cutAt(), actual, wait(t.P10), wait(t.P50), wait(t.P90), t.Runs, inside)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	pct := 0
	if len(r.Targets) > 0 {
		pct = 100 * r.Inside / len(r.Targets)
	}
	errText := "none to compare (no target has a finite p50 and actual wait)"
	if r.MedianAbsErrorSeconds != nil {
		errText = wait(r.MedianAbsErrorSeconds)
		if r.Compared < len(r.Targets) {
			errText += fmt.Sprintf(" (over %d of %d targets: the others wait or are forecast to wait beyond any bound)", r.Compared, len(r.Targets))
		}
	}
	_, err := fmt.Fprintf(w, "\ncalibration %d/%d actual waits inside p10–p90 (%d%%); median |p50 − actual| %s\n",
		r.Inside, len(r.Targets), pct, errText)
	return err
}

// cutAt is the target's cut (its arrival) as a duration.
func (t BacktestTarget) cutAt() time.Duration {
	return time.Duration(t.CutSeconds * float64(time.Second))
}
