package plan

import (
	"fmt"
	"slices"
	"sort"
)

// Merge joins the shards' plans of one sweep. They must share the
// scenario's digest, the --vary values and the number of combinations; a
// combination run by two shards is an error.
func Merge(plans []*Plan) (*Plan, error) {
	if len(plans) == 0 {
		return nil, fmt.Errorf("merging plans: no plan given")
	}
	first := plans[0]
	out := &Plan{SchemaVersion: SchemaVersion, Scenario: first.Scenario, Digest: first.Digest, Vary: first.Vary, Total: first.Total}
	seen := map[int]string{}
	for i, p := range plans {
		switch {
		case p.Digest != first.Digest:
			return nil, fmt.Errorf("merging plans: plan %d ran a different scenario file (digest %.12s, the first %.12s)", i+1, p.Digest, first.Digest)
		case !slices.Equal(p.Vary, first.Vary) || p.Total != first.Total:
			return nil, fmt.Errorf("merging plans: plan %d varies %q (%d combinations), the first %q (%d)", i+1, p.Vary, p.Total, first.Vary, first.Total)
		}
		shard := fmt.Sprint(p.Shards)
		for _, o := range p.Outcomes {
			if other, dup := seen[o.Index]; dup {
				return nil, fmt.Errorf("merging plans: combination %d is in shards %s and %s", o.Index, other, shard)
			}
			seen[o.Index] = shard
			out.Outcomes = append(out.Outcomes, o)
		}
		out.Shards = append(out.Shards, p.Shards...)
	}
	sort.Strings(out.Shards)
	out.sortOutcomes()
	out.pickBest()
	return out, nil
}
