package scenarios

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// loadRefs reads the files the scenario names, relative to dir, into
// s.Loaded: queues.manifests and cluster.kueueConfig.
func loadRefs(s *Scenario, dir string) []manifests.Problem {
	var probs []manifests.Problem
	if len(s.Queues.Manifests) > 0 {
		s.Loaded.Manifests, probs = manifests.Load(dir, s.Queues.Manifests)
	}
	if s.Cluster.KueueConfig != "" {
		if s.Cluster.Kueue != nil {
			return append(probs, manifests.Problem{Item: -1, Field: "cluster.kueueConfig",
				Msg: "cluster.kueue is set too: give the Kueue configuration in one place, the file or cluster.kueue"})
		}
		cfg, file, ps := manifests.LoadKueueConfig(dir, s.Cluster.KueueConfig)
		s.Loaded.KueueConfig, s.Loaded.KueueConfigFile = cfg, file
		probs = append(probs, ps...)
	}
	return probs
}

// fromManifests turns manifest problems into Problems: those about a
// reference get the scenario's line.
func (src source) fromManifests(probs []manifests.Problem) []Problem {
	out := make([]Problem, 0, len(probs))
	for _, p := range probs {
		out = append(out, problemOf(p))
		if p.File == "" {
			out[len(out)-1].Line = src.lines.Line(p.Field)
		}
	}
	return out
}

func problemOf(p manifests.Problem) Problem {
	out := Problem{File: p.File, Line: p.Line, Field: p.Field, Msg: p.Msg}
	switch {
	case p.Doc > 0 && p.Item >= 0:
		out.Doc = fmt.Sprintf("document %d, item %d", p.Doc, p.Item)
	case p.Doc > 0:
		out.Doc = fmt.Sprintf("document %d", p.Doc)
	}
	return out
}

// manifestProblem records a problem of a manifest's field (e from a
// field.Path relative to the object).
func (v *validator) manifestProblem(o manifests.Object, e *field.Error) {
	v.mprobs = append(v.mprobs, problemOf(o.Problem(e.Field, message(e))))
}
