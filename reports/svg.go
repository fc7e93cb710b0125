package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart is one figure of the HTML report.
type Chart struct {
	// ID is the figure's element id and file stem, e.g. "utilization".
	ID      string
	Title   string
	Caption string
	// SVG is the chart as an <svg> element, ready to inline.
	SVG string
}

// NewPlot is a gonum plot with the reports' look: sans-serif text.
func NewPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xLabel, yLabel
	for _, f := range []*font.Variant{
		&p.Title.TextStyle.Font.Variant, &p.X.Label.TextStyle.Font.Variant, &p.Y.Label.TextStyle.Font.Variant,
		&p.X.Tick.Label.Font.Variant, &p.Y.Tick.Label.Font.Variant, &p.Legend.TextStyle.Font.Variant,
	} {
		*f = "Sans"
	}
	p.Add(plotterGrid())
	return p
}

// RenderSVG draws p as an inline <svg> element (no XML prolog), w × h
// points, scaling with its container.
func RenderSVG(p *plot.Plot, w, h vg.Length) (string, error) {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("rendering SVG: %w", err)
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	// Let CSS size the chart; the viewBox keeps its proportions.
	s = strings.Replace(s, "<svg ", `<svg role="img" preserveAspectRatio="xMidYMid meet" `, 1)
	return s, nil
}

// seriesColor is the i-th color of the palette.
func seriesColor(i int) color.Color { return plotutil.Color(i) }
