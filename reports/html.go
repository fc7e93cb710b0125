package reports

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
)

//go:embed report.html.tmpl
var htmlTemplate string

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"dur":         Dur,
	"pct":         Pct,
	"trim":        trim,
	"amount":      Amount,
	"scope":       scope,
	"join":        func(s []string) string { return strings.Join(s, ", ") },
	"share":       shareText,
	"fairSummary": fairnessSummary,
	// svg inlines a chart that RenderSVG drew from the report's own
	// numbers and names: no input reaches it unescaped by gonum/plot.
	"svg": func(s string) template.HTML { return template.HTML(s) }, //nolint:gosec
	"byFlavor": func(m map[string]int) string {
		var parts []string
		for _, f := range sortedKeys(m) {
			parts = append(parts, fmt.Sprintf("%s: %d", f, m[f]))
		}
		return strings.Join(parts, ", ")
	},
}).Parse(htmlTemplate))

// WriteHTML writes one self-contained page: tables and the charts as
// inline SVG, no scripts, no external resources.
func (r *Report) WriteHTML(w io.Writer) error {
	charts, err := r.Charts()
	if err != nil {
		return fmt.Errorf("drawing the charts: %w", err)
	}
	data := struct {
		R                   *Report
		Charts              []Chart
		Passed              int
		TeamHours, TeamPeak map[string]float64
		ShareTables         map[string]ShareTable
	}{r, charts, r.passedCount(), map[string]float64{}, map[string]float64{}, r.shareTables()}
	for _, t := range r.Teams {
		for _, u := range t.Resources {
			if u.Resource == r.Resource {
				data.TeamHours[t.Name] += u.UsedHours
				data.TeamPeak[t.Name] = max(data.TeamPeak[t.Name], u.PeakUsed)
			}
		}
	}
	if err := pageTemplate.Execute(w, data); err != nil {
		return fmt.Errorf("writing the HTML report: %w", err)
	}
	return nil
}
