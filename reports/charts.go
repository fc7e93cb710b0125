package reports

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// chartW and chartH are the charts' size in points.
const (
	chartW = 16 * vg.Centimeter
	chartH = 8 * vg.Centimeter
)

func plotterGrid() plot.Plotter {
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	return g
}

// Charts draws the report's figures: utilization over time per flavor,
// stacked usage per team, and the queue-wait distribution.
func (r *Report) Charts() ([]Chart, error) {
	var out []Chart
	for _, f := range []func() (Chart, error){r.utilizationChart, r.teamUsageChart, r.waitChart} {
		c, err := f()
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// hoursX is a step series' x: segment bounds in simulated hours.
func (r *Report) steps(f func(segment) float64) plotter.XYs {
	var xys plotter.XYs
	for _, s := range r.series.Segments {
		v := f(s)
		xys = append(xys, plotter.XY{X: s.From.Hours(), Y: v}, plotter.XY{X: s.To.Hours(), Y: v})
	}
	if len(xys) == 0 {
		xys = plotter.XYs{{X: 0, Y: 0}}
	}
	return xys
}

func (r *Report) utilizationChart() (Chart, error) {
	res := r.Resource
	p := NewPlot("", "simulated time (hours)", "% of "+res+" capacity admitted")
	p.Y.Min, p.Y.Max = 0, 125 // room for the legend above 100 %
	i := 0
	for _, f := range r.Flavors {
		if f.Resource != res || f.Capacity == 0 {
			continue
		}
		k, capacity := fr{f.Flavor, res}, f.Capacity
		l, err := plotter.NewLine(r.steps(func(s segment) float64 { return 100 * s.Flavor[k] / capacity }))
		if err != nil {
			return Chart{}, fmt.Errorf("drawing utilization of %s: %w", f.Flavor, err)
		}
		l.Color, l.Width = seriesColor(i), vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (%.0f%%)", f.Flavor, 100*f.Utilization), l)
		i++
	}
	p.Legend.Top = true
	svg, err := RenderSVG(p, chartW, chartH)
	return Chart{ID: "utilization", Title: "Utilization over time per flavor",
		Caption: fmt.Sprintf("Share of each flavor's %s capacity held by admitted workloads; the legend gives the run's average.", res),
		SVG:     svg}, err
}

func (r *Report) teamUsageChart() (Chart, error) {
	res := r.Resource
	p := NewPlot("", "simulated time (hours)", res+" admitted")
	var teams []string
	for _, t := range r.Teams {
		teams = append(teams, t.Name)
	}
	teamUse := func(s segment, team string) float64 {
		sum := 0.0
		for k, v := range s.Team {
			if k.Group == team && k.Resource == res {
				sum += v
			}
		}
		return sum
	}
	below := func(s segment, n int) float64 {
		sum := 0.0
		for _, t := range teams[:n] {
			sum += teamUse(s, t)
		}
		return sum
	}
	for i, team := range teams {
		upper := r.steps(func(s segment) float64 { return below(s, i+1) })
		lower := r.steps(func(s segment) float64 { return below(s, i) })
		ring := append(plotter.XYs{}, upper...)
		for j := len(lower) - 1; j >= 0; j-- {
			ring = append(ring, lower[j])
		}
		poly, err := plotter.NewPolygon(ring)
		if err != nil {
			return Chart{}, fmt.Errorf("drawing usage of team %s: %w", team, err)
		}
		poly.Color = seriesColor(i)
		poly.LineStyle.Width = 0
		p.Add(poly)
		p.Legend.Add(team, poly)
	}
	capacity := 0.0
	for _, f := range r.Flavors {
		if f.Resource == res {
			capacity += f.Capacity
		}
	}
	if capacity > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: capacity}, {X: r.series.End.Hours(), Y: capacity}})
		if err != nil {
			return Chart{}, fmt.Errorf("drawing capacity: %w", err)
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("capacity", l)
		p.Y.Max = capacity * (1.2 + 0.12*float64(len(teams))) // room for the legend
	}
	p.Y.Min = 0
	p.Legend.Top = true
	svg, err := RenderSVG(p, chartW, chartH)
	return Chart{ID: "team-usage", Title: "Usage per team (stacked)",
		Caption: fmt.Sprintf("%s held by each team's admitted workloads, stacked; the dashed line is the cluster's capacity.", res),
		SVG:     svg}, err
}

func (r *Report) waitChart() (Chart, error) {
	p := NewPlot("", "queue wait (minutes)", "workloads")
	maxMin := 0.0
	for _, w := range r.waits {
		maxMin = math.Max(maxMin, w.Seconds/60)
	}
	width := niceWidth(maxMin / 10)
	n := int(maxMin/width) + 1
	bins := make([]plotter.HistogramBin, n)
	for i := range bins {
		bins[i] = plotter.HistogramBin{Min: float64(i) * width, Max: float64(i+1) * width}
	}
	for _, w := range r.waits {
		i := min(int(w.Seconds/60/width), n-1)
		bins[i].Weight++
	}
	h := &plotter.Histogram{Bins: bins, Width: width, FillColor: seriesColor(0), LineStyle: plotter.DefaultLineStyle}
	p.Add(h)
	p.Y.Min = 0
	p.X.Min = 0
	svg, err := RenderSVG(p, chartW, chartH)
	return Chart{ID: "waits", Title: "Queue wait distribution",
		Caption: fmt.Sprintf("Time from arrival to first admission of %d workloads, in bins of %g minutes; workloads never admitted count until the end of the run.", len(r.waits), width),
		SVG:     svg}, err
}

// niceWidth rounds w up to 1, 2 or 5 times a power of ten (at least 1).
func niceWidth(w float64) float64 {
	if w <= 1 {
		return 1
	}
	pow := math.Pow(10, math.Floor(math.Log10(w)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= w {
			return m * pow
		}
	}
	return 10 * pow
}
