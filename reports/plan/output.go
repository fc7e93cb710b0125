package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kueue-sim/kueue-sim/reports"
)

// File names in a plan's folder.
const (
	JSONFile     = "plan.json"
	MarkdownFile = "plan.md"
	ChartFile    = "plan.svg"
)

// WriteFiles writes plan.json, plan.md (the table) and plan.svg (the
// trade-off chart) into dir.
func (p *Plan) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making the plan's folder: %w", err)
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("writing %s: %w", JSONFile, err)
	}
	if err := os.WriteFile(filepath.Join(dir, JSONFile), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", JSONFile, err)
	}
	var md bytes.Buffer
	fmt.Fprintf(&md, "### kueue-sim plan: %s\n\n%s\n\n", p.Scenario, p.Summary())
	if err := p.WriteTable(&md, true); err != nil {
		return err
	}
	fmt.Fprintf(&md, "\n![trade-off](%s)\n", ChartFile)
	if err := os.WriteFile(filepath.Join(dir, MarkdownFile), md.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", MarkdownFile, err)
	}
	svg, err := p.Chart()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ChartFile), []byte(svg), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", ChartFile, err)
	}
	return nil
}

// Summary names the smallest passing configuration, or says there is none.
func (p *Plan) Summary() string {
	ran := fmt.Sprintf("%d of %d combinations run", len(p.Outcomes), p.Total)
	if len(p.Missing) > 0 {
		ran += fmt.Sprintf(" (missing: %v: merge every shard)", p.Missing)
	}
	if p.Best == nil {
		return ran + "; none met every expectation."
	}
	o := p.outcome(*p.Best)
	return fmt.Sprintf("%s; smallest configuration meeting every expectation: #%d, %s (%s %s, p90 wait %s, utilization %s).",
		ran, o.Index, describe(o.Combination), reports.Amount(o.Resource, o.Capacity), o.Resource, reports.Dur(o.P90Wait), reports.Pct(o.Utilization))
}

func (p *Plan) outcome(index int) Outcome {
	for _, o := range p.Outcomes {
		if o.Index == index {
			return o
		}
	}
	return Outcome{}
}

// WriteTable writes one row per run, as Markdown or aligned text.
func (p *Plan) WriteTable(w io.Writer, markdown bool) error {
	header := append([]string{"#"}, shortNames(p.settingsOf())...)
	res := "capacity"
	if len(p.Outcomes) > 0 && p.Outcomes[0].Resource != "" {
		res = p.Outcomes[0].Resource
	}
	header = append(header, res, "utilization", "p90 wait", "max wait", "result")
	rows := [][]string{header}
	for _, o := range p.Outcomes {
		row := []string{strconv.Itoa(o.Index)}
		for _, s := range o.Settings {
			row = append(row, s.Value)
		}
		result := verdict(o)
		if p.Best != nil && *p.Best == o.Index {
			result += " ← smallest"
		}
		row = append(row, reports.Amount(o.Resource, o.Capacity), reports.Pct(o.Utilization),
			reports.Dur(o.P90Wait), reports.Dur(o.MaxWait), result)
		rows = append(rows, row)
	}
	var b bytes.Buffer
	if markdown {
		for i, r := range rows {
			b.WriteString("| " + strings.Join(escape(r), " | ") + " |\n")
			if i == 0 {
				b.WriteString("|" + strings.Repeat("---|", len(r)) + "\n")
			}
		}
	} else {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		tw.Flush()
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing the plan's table: %w", err)
	}
	return nil
}

func escape(r []string) []string {
	out := make([]string, len(r))
	for i, s := range r {
		out[i] = strings.ReplaceAll(s, "|", `\|`)
	}
	return out
}

// shortNames keeps the last two steps of each path
// (resources[nvidia.com/gpu].nominal) unless two would then look alike.
func shortNames(paths []string) []string {
	out := make([]string, len(paths))
	seen := map[string]bool{}
	for i, p := range paths {
		steps := strings.Split(p, ".")
		// A selector may hold dots (nvidia.com/gpu): rejoin inside brackets.
		var joined []string
		for _, s := range steps {
			if n := len(joined); n > 0 && strings.Count(joined[n-1], "[") > strings.Count(joined[n-1], "]") {
				joined[n-1] += "." + s
				continue
			}
			joined = append(joined, s)
		}
		short := p
		if len(joined) > 2 {
			short = strings.Join(joined[len(joined)-2:], ".")
		}
		if seen[short] {
			return paths
		}
		seen[short] = true
		out[i] = short
	}
	return out
}

// settingsOf are the varied paths, in order.
func (p *Plan) settingsOf() []string {
	if len(p.Outcomes) == 0 {
		return nil
	}
	var out []string
	for _, s := range p.Outcomes[0].Settings {
		out = append(out, s.Path)
	}
	return out
}

// Chart plots p90 queue wait against capacity (or, when the capacity does
// not change, against the first varied value): passing runs as circles,
// failing ones as crosses, the smallest passing one ringed.
func (p *Plan) Chart() (string, error) {
	xOf, xLabel := p.xAxis()
	pl := reports.NewPlot("", xLabel, "p90 queue wait (minutes)")
	var pass, fail, best plotter.XYs
	for _, o := range p.Outcomes {
		if o.Error != "" {
			continue
		}
		pt := plotter.XY{X: xOf(o), Y: o.P90Wait / 60}
		if o.Passed {
			pass = append(pass, pt)
		} else {
			fail = append(fail, pt)
		}
		if p.Best != nil && *p.Best == o.Index {
			best = append(best, pt)
		}
	}
	add := func(xys plotter.XYs, shape draw.GlyphDrawer, color int, radius vg.Length, label string) error {
		if len(xys) == 0 {
			return nil
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("drawing the plan's chart: %w", err)
		}
		s.GlyphStyle.Shape, s.GlyphStyle.Color, s.GlyphStyle.Radius = shape, reportsColor(color), radius
		pl.Add(s)
		pl.Legend.Add(label, s)
		return nil
	}
	if err := add(pass, draw.CircleGlyph{}, 1, vg.Points(4), "meets every expectation"); err != nil {
		return "", err
	}
	if err := add(fail, draw.CrossGlyph{}, 0, vg.Points(5), "fails an expectation"); err != nil {
		return "", err
	}
	if err := add(best, draw.RingGlyph{}, 2, vg.Points(9), "smallest passing"); err != nil {
		return "", err
	}
	if err := p.frontier(pl, xOf); err != nil {
		return "", err
	}
	// Keep the points off the frame and the legend above them.
	lo, hi, top := math.Inf(1), math.Inf(-1), 0.0
	for _, xys := range []plotter.XYs{pass, fail} {
		for _, pt := range xys {
			lo, hi, top = math.Min(lo, pt.X), math.Max(hi, pt.X), math.Max(top, pt.Y)
		}
	}
	if !math.IsInf(lo, 0) {
		pad := math.Max((hi-lo)*0.08, 0.5)
		pl.X.Min, pl.X.Max = lo-pad, hi+pad
	}
	pl.Y.Min, pl.Y.Max = 0, math.Max(top, 1)*1.35
	pl.Legend.Top = true
	return reports.RenderSVG(pl, 16*vg.Centimeter, 9*vg.Centimeter)
}

// frontier draws, dashed, the lowest p90 wait at each x: the trade-off.
func (p *Plan) frontier(pl *plot.Plot, xOf func(Outcome) float64) error {
	best := map[float64]float64{}
	for _, o := range p.Outcomes {
		if o.Error != "" {
			continue
		}
		x := xOf(o)
		if y, ok := best[x]; !ok || o.P90Wait/60 < y {
			best[x] = o.P90Wait / 60
		}
	}
	if len(best) < 2 {
		return nil
	}
	var xys plotter.XYs
	for x, y := range best {
		xys = append(xys, plotter.XY{X: x, Y: y})
	}
	sort.Slice(xys, func(i, j int) bool { return xys[i].X < xys[j].X })
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("drawing the plan's chart: %w", err)
	}
	l.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	l.Color = color.Gray{Y: 140}
	pl.Add(l)
	return nil
}

// xAxis is the chart's x: the capacity when it varies, else the first
// varied value (when numeric), else the run's index.
func (p *Plan) xAxis() (func(Outcome) float64, string) {
	caps := map[float64]bool{}
	for _, o := range p.Outcomes {
		if o.Error == "" {
			caps[o.Capacity] = true
		}
	}
	if len(caps) > 1 {
		res := ""
		if len(p.Outcomes) > 0 {
			res = p.Outcomes[0].Resource
		}
		return func(o Outcome) float64 { return o.Capacity }, res + " in the cluster"
	}
	numeric := len(p.Outcomes) > 0 && len(p.Outcomes[0].Settings) > 0
	for _, o := range p.Outcomes {
		if len(o.Settings) == 0 {
			numeric = false
			break
		}
		if _, err := strconv.ParseFloat(o.Settings[0].Value, 64); err != nil {
			numeric = false
		}
	}
	if numeric {
		return func(o Outcome) float64 { v, _ := strconv.ParseFloat(o.Settings[0].Value, 64); return v }, p.Outcomes[0].Settings[0].Path
	}
	return func(o Outcome) float64 { return float64(o.Index) }, "combination"
}
