package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kueue-sim/kueue-sim/reports"
)

// TableOptions choose what a table shows.
type TableOptions struct {
	// All shows unchanged metrics too.
	All bool
	// Markdown writes a Markdown table (for a pull-request comment).
	Markdown bool
	// NoVerdict leaves the verdict line out, for a caller that writes its
	// own.
	NoVerdict bool
}

// WriteTable writes what moved (or everything), then a verdict line.
func (res Result) WriteTable(w io.Writer, o TableOptions) error {
	var rows [][]string
	moved := 0
	for _, r := range res.Rows {
		if r.Moved() {
			moved++
		}
		if !o.All && !r.Moved() && r.Status != Breach {
			continue
		}
		rows = append(rows, []string{r.ID, Value(r.Kind, r.Base), Value(r.Kind, r.New), r.Change(), r.Allowed, string(r.Status), r.Note})
	}
	header := []string{"METRIC", "BASELINE", "NEW", "CHANGE", "ALLOWED", "STATUS", "NOTE"}
	var err error
	if o.Markdown {
		err = writeMarkdown(w, header, rows)
	} else {
		err = writeText(w, header, rows)
	}
	if err != nil {
		return fmt.Errorf("writing the comparison: %w", err)
	}
	for _, n := range res.Notes {
		if _, err := fmt.Fprintln(w, "note: "+n); err != nil {
			return fmt.Errorf("writing the comparison: %w", err)
		}
	}
	if o.NoVerdict {
		return nil
	}
	verdict := fmt.Sprintf("%d of %d metrics moved; ", moved, len(res.Rows))
	if res.Passed() {
		verdict += "no breach: PASS"
	} else {
		verdict += fmt.Sprintf("%d breach(es): FAIL", res.Breaches)
	}
	_, err = fmt.Fprintln(w, verdict)
	return err
}

func writeText(w io.Writer, header []string, rows [][]string) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "nothing moved")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range append([][]string{header}, rows...) {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

func writeMarkdown(w io.Writer, header []string, rows [][]string) error {
	var b strings.Builder
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|" + strings.Repeat("---|", len(header)) + "\n")
	for _, r := range rows {
		for i := range r {
			r[i] = strings.ReplaceAll(r[i], "|", `\|`)
		}
		r[0] = "`" + r[0] + "`"
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Value writes a metric's value in its unit, "-" when it is absent.
func Value(k reports.MetricKind, v *float64) string {
	if v == nil {
		return "-"
	}
	return format(k, *v)
}

// Change is the difference, in the metric's unit, with its relative size
// when the baseline is not zero; "" when one side is absent.
func (r Row) Change() string {
	if r.Base == nil || r.New == nil {
		return ""
	}
	d := *r.New - *r.Base
	if d == 0 {
		return "0"
	}
	s := format(r.Kind, d)
	switch r.Kind.Unit {
	case "ratio":
		s = fmt.Sprintf("%+.1fpp", 100*d)
	case "index":
		s = fmt.Sprintf("%+.3f", d)
	default:
		if d > 0 {
			s = "+" + s
		}
	}
	if *r.Base != 0 {
		s += fmt.Sprintf(" (%+.1f%%)", 100*d / *r.Base)
	}
	return s
}
