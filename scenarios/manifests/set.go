package manifests

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
)

// Set is the objects of a scenario's manifests, in the order of the
// references, the files and the documents.
type Set struct {
	Objects []Object
	// Files are the files the references resolved to.
	Files []string
}

// Load reads the manifests refs name, each a file, a folder (its .yaml,
// .yml and .json files, recursively, in lexical order) or a glob, relative
// to baseDir, and decodes them all. It returns every problem; the set holds
// the objects that decoded. A file named twice is read once. A problem
// with a reference itself names queues.manifests[i].
func Load(baseDir string, refs []string) (*Set, []Problem) {
	return LoadAt(baseDir, "queues.manifests", refs)
}

// LoadAt is Load of references the scenario gives at field (e.g.
// changes[2].apply): a problem with a reference itself names field[i].
func LoadAt(baseDir, field string, refs []string) (*Set, []Problem) {
	set := &Set{}
	var probs []Problem
	seen := map[string]bool{}
	for i, ref := range refs {
		files, ps := resolve(baseDir, fmt.Sprintf("%s[%d]", field, i), ref)
		probs = append(probs, ps...)
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			set.Files = append(set.Files, f)
		}
	}
	if len(set.Files) > MaxFiles {
		return set, append(probs, Problem{Item: -1, Field: field, Msg: fmt.Sprintf("the references name %d files, over the limit of %d", len(set.Files), MaxFiles)})
	}
	for _, f := range set.Files {
		data, err := readFile(f)
		if err != nil {
			probs = append(probs, Problem{File: f, Item: -1, Msg: fmt.Sprintf("reading the manifests: %v", err)})
			continue
		}
		objs, ps := Decode(f, data)
		set.Objects = append(set.Objects, objs...)
		probs = append(probs, ps...)
		if len(set.Objects) > MaxObjects {
			return set, append(probs, Problem{File: f, Item: -1, Msg: fmt.Sprintf("the manifests hold over %d objects: split the scenario", MaxObjects)})
		}
	}
	return set, append(probs, set.duplicates()...)
}

// key identifies an object: two with one key are the same object.
type key struct{ kind, namespace, name string }

func keyOf(o Object) key { return key{o.Kind, o.Obj.GetNamespace(), o.Obj.GetName()} }

// duplicates reports objects defined twice (the second), and a second
// DataScienceCluster: the platform acts on one.
func (s *Set) duplicates() []Problem {
	first := map[key]Source{}
	var probs []Problem
	var dsc *Object
	for i := range s.Objects {
		o := s.Objects[i]
		if at, dup := first[keyOf(o)]; dup {
			probs = append(probs, o.Problem("metadata.name", fmt.Sprintf("%s is defined twice: also at %s; remove one or rename it", o.Name(), at)))
			continue
		}
		first[keyOf(o)] = o.Source
		if o.Kind == "DataScienceCluster" {
			if dsc != nil {
				probs = append(probs, o.Problem("", fmt.Sprintf("a second DataScienceCluster (the first is %s at %s): the platform acts on one; remove one", dsc.Obj.GetName(), dsc.Source)))
				continue
			}
			dsc = &s.Objects[i]
		}
	}
	return probs
}

// Of returns the set's objects of type T (*kueue.ClusterQueue, ...), with
// their sources; a nil set has none.
func Of[T client.Object](s *Set) []Typed[T] {
	if s == nil {
		return nil
	}
	var out []Typed[T]
	for _, o := range s.Objects {
		if t, ok := o.Obj.(T); ok {
			out = append(out, Typed[T]{Obj: t, Object: o})
		}
	}
	return out
}

// Typed is an object of a known type with its source.
type Typed[T client.Object] struct {
	Obj T
	Object
}

// Objects of each kind, in the order the engine creates them.
func (s *Set) Namespaces() []Typed[*corev1.Namespace] { return Of[*corev1.Namespace](s) }
func (s *Set) DataScienceClusters() []Typed[*dscv1.DataScienceCluster] {
	return Of[*dscv1.DataScienceCluster](s)
}
func (s *Set) ResourceFlavors() []Typed[*kueue.ResourceFlavor] { return Of[*kueue.ResourceFlavor](s) }
func (s *Set) Topologies() []Typed[*kueue.Topology]            { return Of[*kueue.Topology](s) }
func (s *Set) Cohorts() []Typed[*kueue.Cohort]                 { return Of[*kueue.Cohort](s) }
func (s *Set) ClusterQueues() []Typed[*kueue.ClusterQueue]     { return Of[*kueue.ClusterQueue](s) }
func (s *Set) WorkloadPriorityClasses() []Typed[*kueue.WorkloadPriorityClass] {
	return Of[*kueue.WorkloadPriorityClass](s)
}
func (s *Set) LocalQueues() []Typed[*kueue.LocalQueue] { return Of[*kueue.LocalQueue](s) }
func (s *Set) HardwareProfiles() []Typed[*infrav1.HardwareProfile] {
	return Of[*infrav1.HardwareProfile](s)
}
func (s *Set) OdhDashboardConfigs() []Typed[*odhv1alpha.OdhDashboardConfig] {
	return Of[*odhv1alpha.OdhDashboardConfig](s)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// WithNamespacePrefix returns a copy of s whose namespaced objects live in
// prefix+namespace and whose Namespaces are named so, labelled with labels
// too: the set of a run on a shared cluster (see sim/remote). s is not
// changed.
func (s *Set) WithNamespacePrefix(prefix string, labels map[string]string) *Set {
	if s == nil {
		return nil
	}
	out := &Set{Files: s.Files, Objects: make([]Object, len(s.Objects))}
	for i, o := range s.Objects {
		obj := o.Obj.DeepCopyObject().(client.Object)
		if ns := obj.GetNamespace(); ns != "" {
			obj.SetNamespace(prefix + ns)
		}
		if n, ok := obj.(*corev1.Namespace); ok {
			n.Name = prefix + n.Name
			if n.Labels == nil {
				n.Labels = map[string]string{}
			}
			for k, v := range labels {
				n.Labels[k] = v
			}
		}
		o.Obj = obj
		out.Objects[i] = o
	}
	return out
}
