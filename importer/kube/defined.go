package kube

import (
	"sort"
	"strings"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// defined is what the scenario an import writes declares, in its schema
// and its manifests alike: what its streams and objects may name, as the
// loader (scenarios/validate_manifests.go) looks them up.
type defined struct {
	priorities    map[string]bool
	clusterQueues map[string]bool
	flavors       map[string]bool
	cohorts       map[string]bool
	// namespaces are the teams' namespaces and the manifests' Namespaces.
	namespaces map[string]bool
	// localQueues maps {namespace, name} to the LocalQueue's ClusterQueue.
	localQueues map[[2]string]string
	// placed are the manifests' objects that must live in a declared
	// namespace (LocalQueues, HardwareProfiles, OdhDashboardConfigs).
	placed []placedObject
	// profiles are the manifests' Queue HardwareProfiles.
	profiles []profileQueue
	// flavorUsers are the manifests' ClusterQueues naming each flavor.
	flavorUsers map[string][]string
}

// placedObject is a namespaced manifest: "Kind namespace/name".
type placedObject struct{ kind, namespace, name string }

// profileQueue is a Queue HardwareProfile's LocalQueue (looked up in the
// profile's namespace) and priority class.
type profileQueue struct{ namespace, name, localQueue, priorityClass string }

// definedBy reads what s declares: its schema (s.Queues, s.Teams) and the
// objects of sets (s.Loaded.Manifests first).
func definedBy(s *scenarios.Scenario, sets ...*manifests.Set) *defined {
	d := &defined{
		priorities: map[string]bool{}, clusterQueues: map[string]bool{}, flavors: map[string]bool{},
		cohorts: map[string]bool{}, namespaces: map[string]bool{}, localQueues: map[[2]string]string{},
		flavorUsers: map[string][]string{},
	}
	view := &scenarios.Scenario{Queues: s.Queues, Teams: append([]scenarios.Team(nil), s.Teams...)}
	all := &manifests.Set{}
	for _, set := range append([]*manifests.Set{s.Loaded.Manifests}, sets...) {
		if set != nil {
			all.Objects = append(all.Objects, set.Objects...)
		}
	}
	view.Loaded.Manifests = all
	for name := range view.PriorityValues() {
		d.priorities[name] = true
	}
	for _, f := range view.FlavorNodeLabels() {
		d.flavors[f.Name] = true
	}
	for _, c := range view.CohortParents() {
		d.cohorts[c.Name] = true
	}
	for _, cq := range view.ClusterQueueCohorts() {
		d.clusterQueues[cq.Name] = true
	}
	for i := range view.Teams {
		t := &view.Teams[i]
		if t.Namespace == "" {
			t.Namespace = t.Name
		}
		d.namespaces[t.Namespace] = true
	}
	for key, cq := range view.LocalQueueTargets() {
		ns, name, _ := strings.Cut(key, "/")
		d.localQueues[[2]string{ns, name}] = cq
	}
	for _, o := range all.Namespaces() {
		d.namespaces[o.Obj.Name] = true
	}
	for _, o := range all.LocalQueues() {
		d.placed = append(d.placed, placedObject{"LocalQueue", o.Obj.Namespace, o.Obj.Name})
	}
	for _, o := range all.HardwareProfiles() {
		d.placed = append(d.placed, placedObject{"HardwareProfile", o.Obj.Namespace, o.Obj.Name})
		if sc := o.Obj.Spec.Scheduling; sc != nil && sc.Type == infrav1.QueueScheduling && sc.Kueue != nil {
			d.profiles = append(d.profiles, profileQueue{o.Obj.Namespace, o.Obj.Name, sc.Kueue.LocalQueueName, sc.Kueue.PriorityClass})
		}
	}
	for _, o := range all.ClusterQueues() {
		for _, g := range o.Obj.Spec.ResourceGroups {
			for _, f := range g.Flavors {
				d.flavorUsers[string(f.Name)] = append(d.flavorUsers[string(f.Name)], o.Obj.Name)
			}
		}
	}
	for _, o := range all.OdhDashboardConfigs() {
		d.placed = append(d.placed, placedObject{"OdhDashboardConfig", o.Obj.Namespace, o.Obj.Name})
	}
	return d
}

// danglingLocalQueues are the LocalQueues whose ClusterQueue is not
// declared, by ClusterQueue, sorted.
func (d *defined) danglingLocalQueues() map[string][][2]string {
	out := map[string][][2]string{}
	for lq, cq := range d.localQueues {
		if !d.clusterQueues[cq] {
			out[cq] = append(out[cq], lq)
		}
	}
	for _, lqs := range out {
		sort.Slice(lqs, func(i, j int) bool { return lqs[i][0]+"/"+lqs[i][1] < lqs[j][0]+"/"+lqs[j][1] })
	}
	return out
}

// manifestSet decodes the import's own manifests as the loader will.
// Objects that do not decode are left out: the check of the written
// scenario reports them.
func (imp *Import) manifestSet() (*manifests.Set, error) {
	names, files, err := imp.Manifests.Files()
	if err != nil {
		return nil, err
	}
	set := &manifests.Set{}
	for _, name := range names {
		objs, _ := manifests.Decode(name, files[name])
		set.Objects = append(set.Objects, objs...)
	}
	return set, nil
}
