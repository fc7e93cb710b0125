package upgrade

import (
	"fmt"
	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"io"
	"strings"

	"github.com/kueue-sim/kueue-sim/reports/compare"
)

// maxText bounds the workloads the terminal summary lists.
const maxText = 10

// WriteText writes the summary `sim upgrade` prints: the findings, the
// first workloads that decide differently, the metrics that moved and the
// verdict. The files hold the rest.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Upgrade rehearsal of %s: Kueue %s -> %s\n", r.Scenario, r.From, r.To)
	fmt.Fprintf(&b, "%s\n\n", r.summary())

	if len(r.Findings) == 0 {
		fmt.Fprintf(&b, "Configuration: %s reads it as %s does.\n", r.To, r.From)
	} else {
		fmt.Fprintf(&b, "Configuration: %s\n", count(len(r.Findings), "finding"))
		// Gates a release adds or drops are many and mostly about features
		// a scenario does not use: the terminal counts them, the files list
		// them; a changed default is listed here.
		var added, removed int
		for _, f := range r.Findings {
			switch f.Kind {
			case kueuerelease.KindFeatureGateAdded:
				added++
			case kueuerelease.KindFeatureGateRemoved:
				removed++
			default:
				fmt.Fprintf(&b, "  %s %s: %s -> %s. %s\n", f.Kind, f.Name, orAbsent(f.From), orAbsent(f.To), f.Detail)
			}
		}
		if added+removed > 0 {
			fmt.Fprintf(&b, "  %s new in %s and on by default, %s of %s gone: see %s\n",
				count(added, "feature gate"), r.To, count(removed, "gate"), r.From, MarkdownFile)
		}
	}

	if len(r.Workloads) == 0 {
		fmt.Fprintf(&b, "\nDecisions: all %d workloads decided alike.\n", r.Compared)
	} else {
		fmt.Fprintf(&b, "\nDecisions: %d of %d workloads decide differently (%s)\n", len(r.Workloads), r.Compared, strings.Join(Tally(r.Workloads), ", "))
		for i, d := range r.Workloads {
			if i == maxText {
				fmt.Fprintf(&b, "  …and %d more: see %s\n", len(r.Workloads)-maxText, MarkdownFile)
				break
			}
			fmt.Fprintf(&b, "  %s  %s\n", d.Workload, strings.Join(d.Texts(), "; "))
		}
	}

	fmt.Fprintf(&b, "\nMetrics (BASELINE %s, NEW %s):\n", r.From, r.To)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing the upgrade summary: %w", err)
	}
	if err := r.Metrics.WriteTable(w, compare.TableOptions{NoVerdict: true}); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "\n%s\n", r.Verdict()); err != nil {
		return fmt.Errorf("writing the upgrade summary: %w", err)
	}
	return nil
}

func orAbsent(v string) string {
	if v == "" {
		return "absent"
	}
	return v
}
