package scenarios

import (
	"fmt"
	"path/filepath"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// loadRefs reads the files the scenario names, relative to dir, into
// s.Loaded: queues.manifests, the changes' apply files and
// cluster.kueueConfig.
func loadRefs(s *Scenario, dir string) []manifests.Problem {
	var probs []manifests.Problem
	if len(s.Queues.Manifests) > 0 {
		s.Loaded.Manifests, probs = manifests.Load(dir, s.Queues.Manifests)
	}
	probs = append(probs, loadChanges(s, dir)...)
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

// loadChanges reads each change's apply files, as queues.manifests' are
// read, into s.Loaded.Changes at the change's index; a problem with a
// reference itself names changes[i].apply[j]. The files of all changes
// together are bounded as one queues.manifests is (manifests.MaxFiles,
// manifests.MaxObjects): changes applying one folder again and again would
// otherwise read it without end.
func loadChanges(s *Scenario, dir string) []manifests.Problem {
	if len(s.Changes) == 0 {
		return nil
	}
	s.Loaded.Changes = make([]*manifests.Set, len(s.Changes))
	var probs []manifests.Problem
	files, objects := 0, 0
	for i, c := range s.Changes {
		if len(c.Apply) == 0 {
			continue
		}
		at := fmt.Sprintf("changes[%d].apply", i)
		set, ps := manifests.LoadAt(dir, at, c.Apply)
		s.Loaded.Changes[i] = set
		probs = append(probs, ps...)
		if len(set.Files) > manifests.MaxFiles || len(set.Objects) > manifests.MaxObjects {
			return probs // LoadAt reported the limit
		}
		files, objects = files+len(set.Files), objects+len(set.Objects)
		if files > manifests.MaxFiles || objects > manifests.MaxObjects {
			return append(probs, manifests.Problem{Item: -1, Field: at, Msg: fmt.Sprintf(
				"the changes up to this one apply %d files holding %d objects, over the limit of %d files and %d objects for all changes together: apply fewer files, or split the scenario",
				files, objects, manifests.MaxFiles, manifests.MaxObjects)})
		}
	}
	return probs
}

// loadTemplates reads each stream's template, relative to dir (an inline
// one from the scenario, file), into Template.Loaded, and sets the
// stream's kind from the object's. A file that streams share is read once.
// Problems without a File are the scenario's: their Field is the path of
// the template, or of the stream's kind when it contradicts the object's.
func loadTemplates(s *Scenario, dir, file string, src source) []manifests.Problem {
	var probs []manifests.Problem
	files := map[string]*manifests.Object{} // nil: the file did not load
	for i := range s.Workloads {
		w := &s.Workloads[i]
		t := w.Template
		if t == nil {
			continue
		}
		tp := fmt.Sprintf("workloads[%d].template", i)
		var obj *manifests.Object
		var ps []manifests.Problem
		lt := &LoadedTemplate{}
		if t.Inline != nil {
			m, err := t.object()
			if err != nil {
				ps = []manifests.Problem{{Item: -1, Msg: fmt.Sprintf("reading the inline object: %v", err)}}
			} else {
				obj, ps = manifests.DecodeTemplateObject(m)
			}
			lt.Path, lt.Line, lt.field = file, src.lines.Line(tp), tp
		} else {
			path := t.File
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, path)
			}
			var done bool
			if obj, done = files[path]; !done {
				obj, ps = manifests.LoadTemplate(dir, t.File)
				files[path] = obj
			}
			if obj != nil {
				lt.Path, lt.Line = obj.Source.File, obj.Source.Line
			}
		}
		for _, p := range ps {
			if p.File == "" {
				p.Field = joinField(tp, p.Field)
			}
			probs = append(probs, p)
		}
		if obj == nil {
			t.failed = true
			continue
		}
		lt.Object, lt.at = obj.Obj, *obj
		t.Loaded = lt
		kind := WorkloadKind(obj.Kind)
		if w.Kind != "" && w.Kind != kind {
			probs = append(probs, manifests.Problem{Item: -1, Field: fmt.Sprintf("workloads[%d].kind", i), Msg: fmt.Sprintf(
				"%s, but the template is a %s: remove kind (the template's object sets it) or make them agree", w.Kind, kind)})
		}
		w.Kind = kind
	}
	return probs
}

// joinField is the path of field (relative to the object at parent) in
// the scenario.
func joinField(parent, field string) string {
	if field == "" {
		return parent
	}
	return parent + "." + field
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
