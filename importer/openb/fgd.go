package openb

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Published is one placement policy's mean allocation curve from the FGD
// paper's expected results (analysis_allo_discrete.csv).
type Published struct {
	Policy string
	Seeds  int
	Curve  [CurvePoints]float64
}

// ReadPublished reads the published allocation curves of one trace variant
// (e.g. openb_pod_list_default) at one tune (1.3), averaged over seeds, in
// policy order.
func ReadPublished(path, workload string, tune float64) ([]Published, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading published results: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	const first = 5 // workload,sc_policy,tune,seed,total_gpus
	if len(header) < first+CurvePoints || header[0] != "workload" || header[1] != "sc_policy" {
		return nil, fmt.Errorf("reading %s: not an analysis_*_discrete.csv (header %s...)", path, strings.Join(header[:min(len(header), 6)], ","))
	}
	sums := map[string]*Published{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if rec[0] != workload {
			continue
		}
		if t, err := strconv.ParseFloat(rec[2], 64); err != nil || t != tune {
			continue
		}
		p := sums[rec[1]]
		if p == nil {
			p = &Published{Policy: rec[1]}
			sums[rec[1]] = p
		}
		for j := 0; j < CurvePoints; j++ {
			v, err := strconv.ParseFloat(rec[first+j], 64)
			if err != nil {
				return nil, fmt.Errorf("reading %s: policy %s seed %s point %d: %w", path, rec[1], rec[3], j, err)
			}
			p.Curve[j] += v
		}
		p.Seeds++
	}
	var out []Published
	for _, p := range sums {
		for j := range p.Curve {
			p.Curve[j] /= float64(p.Seeds)
		}
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Policy < out[j].Policy })
	if len(out) == 0 {
		return nil, fmt.Errorf("reading %s: no rows for workload %s at tune %g", path, workload, tune)
	}
	return out, nil
}

// TraceName is the published results' name of a task list file:
// .../openb_pod_list_default.csv → openb_pod_list_default.
func TraceName(tasksPath string) string {
	return strings.TrimSuffix(filepath.Base(tasksPath), filepath.Ext(tasksPath))
}

// TablePoints are the arrived-demand points a comparison table shows.
var TablePoints = []int{50, 70, 80, 90, 100, 110, 120, 130}

// Table is a Markdown table of GPU allocation (% of capacity) at
// TablePoints: the published policies, then the replay's rows.
func Table(published []Published, rows map[string][CurvePoints]float64) string {
	var sb strings.Builder
	sb.WriteString("| policy |")
	for _, p := range TablePoints {
		fmt.Fprintf(&sb, " %d%% |", p)
	}
	sb.WriteString("\n|---|")
	for range TablePoints {
		sb.WriteString("---:|")
	}
	sb.WriteString("\n")
	line := func(name string, c [CurvePoints]float64) {
		fmt.Fprintf(&sb, "| %s |", name)
		for _, p := range TablePoints {
			fmt.Fprintf(&sb, " %.1f |", c[p])
		}
		sb.WriteString("\n")
	}
	for _, p := range published {
		line(fmt.Sprintf("%s (mean of %d seeds)", p.Policy, p.Seeds), p.Curve)
	}
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		line(n, rows[n])
	}
	return sb.String()
}
