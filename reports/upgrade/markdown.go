package upgrade

import (
	"fmt"
	"io"
	"strings"

	"github.com/kueue-sim/kueue-sim/reports/compare"
)

// maxListed bounds the workloads upgrade.md and upgrade.html list;
// upgrade.json has them all.
const maxListed = 200

// WriteMarkdown writes the report for a pull-request comment or a wiki
// page: configuration, decisions that differ, metrics, verdict.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### kueue-sim upgrade: %s, Kueue %s → %s\n\n", r.Scenario, r.From, r.To)
	fmt.Fprintf(&b, "The scenario replayed on both releases. %s\n\n", r.summary())

	b.WriteString("#### 1. Configuration\n\n")
	if len(r.Findings) == 0 {
		fmt.Fprintf(&b, "None: %s reads this configuration as %s does.\n\n", r.To, r.From)
	} else {
		fmt.Fprintf(&b, "What %s reads differently in this configuration.\n\n| Kind | Name | %s | %s | What it changes |\n|---|---|---|---|---|\n", r.To, r.From, r.To)
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", md(f.Kind), md(f.Name), md(f.From), md(f.To), md(f.Detail))
		}
		b.WriteString("\n")
	}

	b.WriteString("#### 2. Decisions that differ\n\n")
	if len(r.Workloads) == 0 {
		fmt.Fprintf(&b, "None: every one of the %d workloads was decided alike.\n\n", r.Compared)
	} else {
		fmt.Fprintf(&b, "%d of %d workloads decide differently: %s. %s Times are simulated time since the start of the run.\n\n",
			len(r.Workloads), r.Compared, strings.Join(Tally(r.Workloads), ", "), r.legend())
		fmt.Fprintf(&b, "| Workload | Stream | Team | What changed | Under %s | Under %s |\n|---|---|---|---|---|---|\n", r.From, r.To)
		for _, d := range r.listed() {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", md(d.Workload), md(d.Stream), md(d.Team),
				md(strings.Join(d.Texts(), "; ")), md(storyText(d.From)), md(storyText(d.To)))
		}
		if rest := len(r.Workloads) - maxListed; rest > 0 {
			fmt.Fprintf(&b, "\n…and %d more: %s lists them all.\n", rest, JSONFile)
		}
		b.WriteString("\n")
	}

	fmt.Fprintf(&b, "#### 3. Metrics side by side\n\nBASELINE is the run on %s, NEW the run on %s.\n\n", r.From, r.To)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing the upgrade report: %w", err)
	}
	if err := r.Metrics.WriteTable(w, compare.TableOptions{All: true, Markdown: true, NoVerdict: true}); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n#### 4. Verdict\n\n**%s**\n", r.Verdict())
	if err != nil {
		return fmt.Errorf("writing the upgrade report: %w", err)
	}
	return nil
}

// legend says how to read the changes.
func (r *Report) legend() string {
	return fmt.Sprintf("\"X vs Y\" gives the value under %s first; \"a -> b\" goes from %s to %s.", r.To, r.From, r.To)
}

// listed are the workloads the Markdown and HTML reports show.
func (r *Report) listed() []WorkloadDiff {
	if len(r.Workloads) > maxListed {
		return r.Workloads[:maxListed]
	}
	return r.Workloads
}

// storyText tells a story, or says the workload is absent.
func storyText(s *Story) string {
	if s == nil {
		return "absent"
	}
	return s.String()
}

// md keeps a cell's text from breaking a Markdown table.
func md(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
