package upgrade

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/kueue-sim/kueue-sim/reports/compare"
)

//go:embed upgrade.html.tmpl
var htmlTemplate string

var pageTemplate = template.Must(template.New("upgrade").Funcs(template.FuncMap{
	"story": storyText,
	"join":  strings.Join,
}).Parse(htmlTemplate))

// htmlRow is one metric's row, its cells written.
type htmlRow struct {
	ID, From, To, Change, Allowed, Note string
	Status                              compare.Status
	Breach, Moved                       bool
}

// WriteHTML writes one self-contained page: no scripts, no external
// resources, in the style of the run reports.
func (r *Report) WriteHTML(w io.Writer) error {
	data := struct {
		R       *Report
		Summary string
		Tally   string
		Legend  string
		Listed  []WorkloadDiff
		Rest    int
		Rows    []htmlRow
		Verdict string
	}{R: r, Summary: r.summary(), Tally: strings.Join(Tally(r.Workloads), ", "), Legend: r.legend(),
		Listed: r.listed(), Rest: max(0, len(r.Workloads)-maxListed), Verdict: r.Verdict()}
	for _, row := range r.Metrics.Rows {
		data.Rows = append(data.Rows, htmlRow{ID: row.ID, From: compare.Value(row.Kind, row.Base), To: compare.Value(row.Kind, row.New),
			Change: row.Change(), Allowed: row.Allowed, Note: row.Note, Status: row.Status,
			Breach: row.Status == compare.Breach, Moved: row.Moved()})
	}
	if err := pageTemplate.Execute(w, data); err != nil {
		return fmt.Errorf("writing %s: %w", HTMLFile, err)
	}
	return nil
}
