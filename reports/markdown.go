package reports

import (
	"fmt"
	"io"
	"strings"
)

// maxWhyLines bounds the "why" list of the Markdown summary (a
// pull-request comment); report.html and report.json have them all.
const maxWhyLines = 30

// WriteMarkdown writes a summary short enough for a pull-request comment.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	res := r.Resource
	fmt.Fprintf(&b, "### kueue-sim report: %s\n\n", r.Scenario)
	if r.KueueVersion != "" {
		fmt.Fprintf(&b, "Decided by Kueue %s. ", r.KueueVersion)
	}
	t := r.Totals
	fmt.Fprintf(&b, "Seed %d, %s pacing, %s simulated. %d workloads: %d admitted (%d admissions), %d preempted (%d preemptions), %d evicted, %d refused by webhooks, %d finished, %d failed, %d still pending at the end.",
		r.Seed, r.Pacing, Dur(r.DurationSeconds), t.Workloads, t.Admitted, t.Admissions, t.Preempted, t.Preemptions, t.Evictions, t.Refused, t.Finished, t.Failed, t.PendingAtEnd)
	if len(r.Expectations) > 0 {
		fmt.Fprintf(&b, " Expectations: **%d of %d passed**.", r.passedCount(), len(r.Expectations))
	}
	b.WriteString("\n\n")

	b.WriteString("| Flavor | Capacity | Quota | Utilization | " + res + "-hours used / available | Peak |\n|---|--:|--:|--:|--:|--:|\n")
	for _, f := range r.Flavors {
		if f.Resource == res {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s / %s | %s |\n", f.Flavor, Amount(res, f.Capacity), Amount(res, f.Quota),
				Pct(f.Utilization), trim(f.UsedHours), trim(f.AvailableHours), Amount(res, f.PeakUsed))
		}
	}

	b.WriteString("\n**Queue wait** (arrival to first admission)\n\n| Scope | Workloads | p50 | p90 | p99 | max | Never admitted |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range r.Waits {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %d |\n", scope(s), s.Workloads, Dur(s.P50), Dur(s.P90), Dur(s.P99), Dur(s.Max), s.NeverAdmitted)
	}

	fmt.Fprintf(&b, "\n**ClusterQueues** (%s)\n\n| ClusterQueue | Cohort | Nominal | Average used | Peak | Borrowed h | Lent h | Preemptions | Pending at end |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n", res)
	for _, cq := range r.ClusterQueues {
		var nominal, avg, peak, borrowed, lent float64
		for _, q := range cq.Resources {
			if q.Resource == res {
				nominal, avg, peak = nominal+q.Nominal, avg+q.AverageUsed, max(peak, q.PeakUsed)
				borrowed, lent = borrowed+q.BorrowedHours, lent+q.LentHours
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %d | %d |\n", cq.Name, cq.Cohort, trim(nominal), trim(avg), trim(peak),
			trim(borrowed), trim(lent), cq.Preemptions, cq.PendingAtEnd)
	}

	for _, f := range r.Fairness {
		fmt.Fprintf(&b, "\n**Fairness** — %s\n", mdEscape(fairnessSummary(f)))
		if !f.SharesObserved {
			continue
		}
		b.WriteString("\n| Member | Weight | Time waiting | Average share | Average share while waiting | Peak | At end | Worst gap while waiting |\n|---|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, m := range f.Members {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", m.Name, trim(m.Weight), Dur(m.WaitingSeconds),
				trim(m.AverageShare), trim(m.AverageShareWaiting), shareText(m.PeakShare), shareText(m.EndShare), trim(m.WorstGap))
		}
	}

	if len(r.Preemptions)+len(r.Evictions) > 0 {
		b.WriteString("\n**Preemptions and evictions**\n\n| Kind | Reason | Count | Meaning |\n|---|---|--:|---|\n")
		for _, p := range r.Preemptions {
			fmt.Fprintf(&b, "| preemption | %s | %d | %s |\n", p.Reason, p.Count, p.Meaning)
		}
		for _, p := range r.Evictions {
			fmt.Fprintf(&b, "| eviction | %s | %d | %s |\n", p.Reason, p.Count, p.Meaning)
		}
	}
	if len(r.Refusals) > 0 {
		b.WriteString("\n**Webhook refusals**\n\n| Team | Kind | Count | Message |\n|---|---|--:|---|\n")
		for _, x := range r.Refusals {
			fmt.Fprintf(&b, "| %s | %s | %d | %s |\n", x.Team, x.Kind, x.Count, mdEscape(x.Message))
		}
	}
	if len(r.Placement) > 0 {
		b.WriteString("\n**Placement** (pods bound per node pool)\n\n| Pool | Pods | By flavor | Off their flavor's nodes |\n|---|--:|---|--:|\n")
		for _, p := range r.Placement {
			var parts []string
			for _, f := range sortedKeys(p.ByFlavor) {
				parts = append(parts, fmt.Sprintf("%s: %d", f, p.ByFlavor[f]))
			}
			pool := p.Pool
			if pool == "" {
				pool = "(outside the pools)"
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %d |\n", pool, p.Pods, strings.Join(parts, ", "), p.OffFlavor)
		}
	}
	if len(r.Expectations) > 0 {
		b.WriteString("\n**Expectations**\n\n")
		for _, e := range r.Expectations {
			mark := "✅"
			if !e.Passed {
				mark = "❌"
			}
			fmt.Fprintf(&b, "- %s `%s` (%s): %s\n", mark, e.Name, e.Check, mdEscape(e.Message))
		}
	}
	r.writeWhyMarkdown(&b)
	if len(r.Changes) > 0 {
		b.WriteString("\n**Changes** (quotas and capacity above read the queues as the run started)\n\n")
		for _, c := range r.Changes {
			fmt.Fprintf(&b, "- %s\n", mdEscape(c))
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\n> warning at %s\n", mdEscape(w))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) writeWhyMarkdown(b *strings.Builder) {
	if len(r.Why) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>Why: %d workloads refused, preempted, evicted or still pending</summary>\n\n", len(r.Why))
	for i, y := range r.Why {
		if i == maxWhyLines {
			fmt.Fprintf(b, "- … and %d more in report.html\n", len(r.Why)-maxWhyLines)
			break
		}
		fmt.Fprintf(b, "- `%s` (%s, team %s) at %s: %s\n", y.Workload, y.Kind, y.Team, Dur(y.AtSeconds), mdEscape(y.Explanation))
	}
	b.WriteString("\n</details>\n")
}
