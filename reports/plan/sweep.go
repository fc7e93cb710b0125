package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxCombinations bounds a sweep.
const MaxCombinations = 10000

// Vary is one dimension of a sweep: one path and its values, or several
// paths whose values move together (the i-th value of each at once).
type Vary struct {
	Raw    string
	Paths  []Path
	Values [][]string // per path
}

// ParseVary parses PATH=V1,V2,... ; several PATH=VALUES joined by ";"
// move together and need as many values each:
//
//	cluster.nodePools[a100].count=1,2,3;queues.clusterQueues[research].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal=4,8,12
func ParseVary(raw string) (Vary, error) {
	v := Vary{Raw: raw}
	for _, part := range strings.Split(raw, ";") {
		part = strings.TrimSpace(part)
		path, values, ok := strings.Cut(part, "=")
		if !ok || values == "" {
			return v, fmt.Errorf("--vary %s: want PATH=V1,V2,... (e.g. cluster.nodePools[a100].count=1,2,3)", raw)
		}
		p, err := ParsePath(strings.TrimSpace(path))
		if err != nil {
			return v, fmt.Errorf("--vary %s: %w", raw, err)
		}
		var vals []string
		for _, s := range strings.Split(values, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				return v, fmt.Errorf("--vary %s: empty value in %s", raw, values)
			}
			if _, err := p.Value(s); err != nil {
				return v, fmt.Errorf("--vary: %w", err)
			}
			vals = append(vals, s)
		}
		if len(v.Values) > 0 && len(vals) != len(v.Values[0]) {
			return v, fmt.Errorf("--vary %s: paths joined by ; move together and need as many values each: %s has %d, %s has %d",
				raw, v.Paths[0].Raw, len(v.Values[0]), p.Raw, len(vals))
		}
		v.Paths, v.Values = append(v.Paths, p), append(v.Values, vals)
	}
	return v, nil
}

// Setting is one path's value in a combination.
type Setting struct {
	Path  string `json:"path"`
	Value string `json:"value"`
}

// Combination is one configuration of a sweep.
type Combination struct {
	// Index numbers the combinations of the whole sweep from 0.
	Index    int       `json:"index"`
	Settings []Setting `json:"settings"`
}

// Combinations lists every combination: the first --vary changes
// slowest, the last fastest.
func Combinations(varies []Vary) ([]Combination, error) {
	total := 1
	for _, v := range varies {
		total *= len(v.Values[0])
		if total > MaxCombinations {
			return nil, fmt.Errorf("the sweep has more than %d combinations: vary fewer values or split it with several plans", MaxCombinations)
		}
	}
	out := make([]Combination, 0, total)
	for i := 0; i < total; i++ {
		c := Combination{Index: i}
		rest := i
		idx := make([]int, len(varies))
		for d := len(varies) - 1; d >= 0; d-- {
			n := len(varies[d].Values[0])
			idx[d], rest = rest%n, rest/n
		}
		for d, v := range varies {
			for k, p := range v.Paths {
				c.Settings = append(c.Settings, Setting{Path: p.Raw, Value: v.Values[k][idx[d]]})
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Shard is the part i of n of a sweep (0 ≤ i < n).
type Shard struct{ I, N int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// ParseShard parses i/n, as a Kubernetes Indexed Job's
// $JOB_COMPLETION_INDEX/$COMPLETIONS gives it.
func ParseShard(raw string) (Shard, error) {
	a, b, ok := strings.Cut(raw, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %s: want i/n with 0 ≤ i < n, e.g. 0/4 (a Kubernetes Indexed Job's $JOB_COMPLETION_INDEX/4)", raw)
	}
	return Shard{I: i, N: n}, nil
}

// Of keeps the combinations of shard s: every n-th from the i-th, so the
// shards of a sweep are disjoint, cover it and are alike in size.
func (s Shard) Of(all []Combination) []Combination {
	var out []Combination
	for _, c := range all {
		if c.Index%s.N == s.I {
			out = append(out, c)
		}
	}
	return out
}
