package reports

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/kueue-sim/kueue-sim/sim/metrics"
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
// stacked usage per team, the queue-wait distribution, and — when the log
// holds them — Kueue's weighted share of each ClusterQueue over time.
func (r *Report) Charts() ([]Chart, error) {
	var out []Chart
	charts := []func() (Chart, error){r.utilizationChart, r.teamUsageChart, r.waitChart}
	if r.clusterQueueShares() > 0 {
		charts = append(charts, r.sharesChart)
	}
	for _, f := range charts {
		c, err := f()
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// maxChartSteps bounds the steps a chart draws: longer runs are averaged
// over equal spans of time, so the SVG stays small.
const maxChartSteps = 400

// chartSegments are the segments the charts draw: the timeline's own, or
// maxChartSteps equal spans each holding the time-weighted average.
func (r *Report) chartSegments() []metrics.Segment {
	segs := r.series.Segments
	if len(segs) <= maxChartSteps || r.series.End <= 0 {
		return segs
	}
	width := r.series.End / maxChartSteps
	out := make([]metrics.Segment, maxChartSteps)
	j := 0
	for b := range out {
		from, to := time.Duration(b)*width, time.Duration(b+1)*width
		if b == maxChartSteps-1 {
			to = r.series.End
		}
		acc := metrics.Segment{From: from, To: to, Flavor: make([]float64, len(segs[0].Flavor)), Team: make([]float64, len(segs[0].Team))}
		for ; j < len(segs) && segs[j].From < to; j++ {
			w := (min(segs[j].To, to) - max(segs[j].From, from)).Seconds() / (to - from).Seconds()
			for i, v := range segs[j].Flavor {
				acc.Flavor[i] += w * v
			}
			for i, v := range segs[j].Team {
				acc.Team[i] += w * v
			}
			if segs[j].To > to {
				break // the metrics.Segment goes on into the next span
			}
		}
		out[b] = acc
	}
	return out
}

// steps is a step series over the chart's segments, x in simulated hours.
func (r *Report) steps(segs []metrics.Segment, f func(metrics.Segment) float64) plotter.XYs {
	var xys plotter.XYs
	for _, s := range segs {
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
	segs := r.chartSegments()
	p := NewPlot("", "simulated time (hours)", "% of "+res+" capacity admitted")
	p.Y.Min, p.Y.Max = 0, 125 // room for the legend above 100 %
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 25, Label: "25"}, {Value: 50, Label: "50"}, {Value: 75, Label: "75"}, {Value: 100, Label: "100"}})
	i := 0
	for _, f := range r.Flavors {
		if f.Resource != res || f.Capacity == 0 {
			continue
		}
		k, _ := r.series.Flavors.Index(metrics.FR{Flavor: f.Flavor, Resource: res})
		capacity := f.Capacity
		l, err := plotter.NewLine(r.steps(segs, func(s metrics.Segment) float64 { return 100 * s.Flavor[k] / capacity }))
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
		Caption: fmt.Sprintf("Share of each flavor's %s capacity held by admitted workloads; the legend gives the run's average.%s", res, r.averagedNote(segs)),
		SVG:     svg}, err
}

func (r *Report) teamUsageChart() (Chart, error) {
	res := r.Resource
	segs := r.chartSegments()
	p := NewPlot("", "simulated time (hours)", res+" admitted")
	var teams []string
	pos := map[string]int{}
	for _, t := range r.Teams {
		pos[t.Name] = len(teams)
		teams = append(teams, t.Name)
	}
	// stacked[j][n] is what teams[:n] hold in metrics.Segment j.
	stacked := make([][]float64, len(segs))
	for j, s := range segs {
		use := make([]float64, len(teams))
		for i, k := range r.series.Teams.List() {
			if k.Resource == res {
				use[pos[k.Group]] += s.Team[i]
			}
		}
		stacked[j] = make([]float64, len(teams)+1)
		for n, u := range use {
			stacked[j][n+1] = stacked[j][n] + u
		}
	}
	level := func(n int) plotter.XYs {
		var xys plotter.XYs
		for j, s := range segs {
			xys = append(xys, plotter.XY{X: s.From.Hours(), Y: stacked[j][n]}, plotter.XY{X: s.To.Hours(), Y: stacked[j][n]})
		}
		if len(xys) == 0 {
			xys = plotter.XYs{{X: 0, Y: 0}}
		}
		return xys
	}
	for i, team := range teams {
		upper, lower := level(i+1), level(i)
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
		Caption: fmt.Sprintf("%s held by each team's admitted workloads, stacked; the dashed line is the cluster's capacity.%s", res, r.averagedNote(segs)),
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

// clusterQueueShares counts the ClusterQueues Kueue published shares of.
func (r *Report) clusterQueueShares() int {
	n := 0
	for _, s := range r.shares {
		if s.Kind == metrics.KindClusterQueue {
			n++
		}
	}
	return n
}

// sharesChart draws each ClusterQueue's published weighted share as steps
// from each value Kueue published to the next (or the end of the run).
func (r *Report) sharesChart() (Chart, error) {
	p := NewPlot("", "simulated time (hours)", "weighted share (1000 = lendable quota)")
	top := float64(metrics.ShareUnit) / 10
	for _, s := range r.shares {
		for _, pt := range s.Points {
			if v := float64(pt.Share); pt.Share != math.MaxInt64 && v > top {
				top = v
			}
		}
	}
	weights := map[string]float64{}
	for _, cq := range r.ClusterQueues {
		weights[cq.Name] = cq.Weight
	}
	i := 0
	for _, s := range r.shares {
		if s.Kind != metrics.KindClusterQueue {
			continue
		}
		var xys plotter.XYs
		for j, pt := range s.Points {
			to := r.series.End
			if j+1 < len(s.Points) {
				to = s.Points[j+1].T
			}
			v := math.Min(float64(pt.Share), top) // a zero weight that borrows: drawn at the top
			xys = append(xys, plotter.XY{X: pt.T.Hours(), Y: v}, plotter.XY{X: max(pt.T, to).Hours(), Y: v})
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return Chart{}, fmt.Errorf("drawing the weighted share of %s: %w", s.Name, err)
		}
		l.Color, l.Width = seriesColor(i), vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (weight %s)", s.Name, trim(metrics.Weight(weights, s.Name))), l)
		i++
	}
	p.Y.Min, p.Y.Max = 0, top*(1.2+0.12*float64(i)) // room for the legend
	p.X.Min = 0
	p.Legend.Top = true
	svg, err := RenderSVG(p, chartW, chartH)
	return Chart{ID: "shares", Title: "Weighted share per ClusterQueue",
		Caption: "Kueue's status.fairSharing.weightedShare of each ClusterQueue as the engine observed it: usage above nominal quota over the cohort's lendable quota, of the dominant resource, divided by the weight, ×1000. Kueue admits from the lowest and preempts from the highest.",
		SVG:     svg}, err
}

// averagedNote says when a chart shows averages over spans of time.
func (r *Report) averagedNote(segs []metrics.Segment) string {
	if len(segs) == len(r.series.Segments) || len(segs) == 0 {
		return ""
	}
	return fmt.Sprintf(" Averaged over spans of %s.", Dur((segs[0].To - segs[0].From).Seconds()))
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
