package compare

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kueue-sim/kueue-sim/reports"
)

// maxGoldenLines bounds how many differing lines a golden comparison shows.
const maxGoldenLines = 10

// GoldenResult is the outcome of comparing two decision traces.
type GoldenResult struct {
	Base, New string
	// Identical traces; otherwise Diffs lists differing lines.
	Identical bool
	Diffs     []LineDiff
	// BaseLines and NewLines count the traces' lines.
	BaseLines, NewLines int
}

// LineDiff is one line that differs ("" when one trace has ended).
type LineDiff struct {
	Line      int
	Base, New string
}

// Golden compares two decisions.jsonl files (or the ones in two report
// folders) byte for byte.
func Golden(base, next string) (GoldenResult, error) {
	res := GoldenResult{Base: decisionsPath(base), New: decisionsPath(next)}
	a, err := os.ReadFile(res.Base)
	if err != nil {
		return res, fmt.Errorf("reading the baseline decisions: %w", err)
	}
	b, err := os.ReadFile(res.New)
	if err != nil {
		return res, fmt.Errorf("reading the new decisions: %w", err)
	}
	res.Identical = bytes.Equal(a, b)
	la, lb := lines(a), lines(b)
	res.BaseLines, res.NewLines = len(la), len(lb)
	for i := 0; i < max(len(la), len(lb)); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			res.Diffs = append(res.Diffs, LineDiff{Line: i + 1, Base: x, New: y})
		}
	}
	return res, nil
}

func decisionsPath(p string) string {
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return filepath.Join(p, reports.DecisionsFile)
	}
	return p
}

func lines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Write says whether the traces match and shows the first differences.
func (g GoldenResult) Write(w io.Writer) error {
	var b strings.Builder
	if g.Identical {
		fmt.Fprintf(&b, "decision traces identical (%d decisions): PASS\n", g.BaseLines)
	} else {
		fmt.Fprintf(&b, "decision traces differ from line %d on (baseline %s: %d decisions, new %s: %d): FAIL\n",
			g.Diffs[0].Line, g.Base, g.BaseLines, g.New, g.NewLines)
		for i, d := range g.Diffs {
			if i == maxGoldenLines {
				fmt.Fprintf(&b, "... and %d more lines that differ in place\n", len(g.Diffs)-maxGoldenLines)
				break
			}
			fmt.Fprintf(&b, "line %d:\n  - %s\n  + %s\n", d.Line, orEnd(d.Base), orEnd(d.New))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orEnd(s string) string {
	if s == "" {
		return "(end of trace)"
	}
	return s
}
