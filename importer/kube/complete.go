package kube

import (
	"fmt"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// complete adds to the import what its streams and objects name and the
// cluster (or the --cluster base, whose schema and loaded manifests base
// holds; nil for none) lacks, so that the scenario loads:
//
//   - a Namespace for each namespaced object (LocalQueue, HardwareProfile,
//     OdhDashboardConfig) outside the teams' namespaces and the manifests'
//     Namespaces;
//   - a LocalQueue in a Queue HardwareProfile's namespace, named as its
//     localQueueName (the loader looks it up there), to the ClusterQueue of
//     the LocalQueues of that name elsewhere;
//   - a LocalQueue for each namespace and queue the workloads name, to the
//     ClusterQueue their status.admission names (else <namespace>-<queue>);
//   - a ClusterQueue for each ClusterQueue a LocalQueue names and nobody
//     declares, inferred as sim import workloads does (the inferred cohort,
//     quota on the inferred flavor = the peak of its workloads), with that
//     ResourceFlavor and Cohort when missing;
//   - a ResourceFlavor, without node labels, for each flavor a ClusterQueue
//     names and nobody declares;
//   - a WorkloadPriorityClass for each class the workloads or the profiles
//     name, with the value most of its workloads carried.
//
// Each addition is said in imp.Added; lacks names what lacked it.
func (imp *Import) complete(base *scenarios.Scenario, recs []record, now time.Time, lacks string) error {
	own, err := imp.manifestSet()
	if err != nil {
		return err
	}
	view := &scenarios.Scenario{Teams: imp.Scenario.Teams}
	if base != nil {
		view.Queues, view.Loaded.Manifests = base.Queues, base.Loaded.Manifests
	}
	c := &completion{imp: imp, d: definedBy(view, own), recs: recs, now: now, lacks: lacks}
	for _, step := range []func() error{c.namespaces, c.profileQueues, c.streamQueues, c.clusterQueues, c.flavors, c.priorityClasses} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// completion is the state of complete: what is declared so far.
type completion struct {
	imp   *Import
	d     *defined
	recs  []record
	now   time.Time
	lacks string
}

func (c *completion) add(kind string, obj runtime.Object) error {
	m, err := toMap(obj, kueue.SchemeGroupVersion.String(), kind)
	if err != nil {
		return err
	}
	c.imp.Manifests.Add(kind, m)
	return nil
}

// forbidden tells whether the import could not list resource.
func (c *completion) forbidden(resource string) bool {
	for _, m := range c.imp.Missing {
		if strings.HasPrefix(m, "forbidden: list "+resource+":") {
			return true
		}
	}
	return false
}

// say records an addition: what, then why.
func (c *completion) say(what, format string, args ...any) {
	c.imp.Added = append(c.imp.Added, Addition{What: what, Why: fmt.Sprintf(format, args...)})
}

// namespaces adds a Namespace, without labels, for each namespaced object
// outside the declared namespaces.
func (c *completion) namespaces() error {
	objsIn := map[string][]string{}
	for _, o := range c.d.placed {
		if !c.d.namespaces[o.namespace] {
			objsIn[o.namespace] = append(objsIn[o.namespace], o.kind+" "+o.name)
		}
	}
	why := c.lacks + " has no such namespace"
	if c.forbidden("namespaces") {
		why = "namespaces could not be listed"
	}
	for _, ns := range sortedKeys(objsIn) {
		c.imp.Manifests.Add("Namespace", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
		c.d.namespaces[ns] = true
		objs := objsIn[ns]
		sort.Strings(objs)
		c.say("Namespace "+ns, "without labels, for %s (%s)", strings.Join(objs, ", "), why)
	}
	return nil
}

// profileQueues adds the LocalQueue each Queue HardwareProfile names to its
// own namespace.
func (c *completion) profileQueues() error {
	for _, p := range c.d.profiles {
		key := [2]string{p.namespace, p.localQueue}
		if _, ok := c.d.localQueues[key]; ok || p.localQueue == "" {
			continue
		}
		votes, like := map[string]int{}, ""
		for _, lq := range sortedLocalQueues(c.d.localQueues) {
			if lq[1] == p.localQueue {
				votes[c.d.localQueues[lq]]++
				if like == "" {
					like = " as " + lq[0] + "/" + lq[1] + " does"
				}
			}
		}
		cq := mostVoted(votes, sanitizeSubdomain(p.namespace+"-"+p.localQueue))
		if err := c.localQueue(key, cq); err != nil {
			return err
		}
		c.say("LocalQueue "+p.namespace+"/"+p.localQueue, "to ClusterQueue %s%s, for HardwareProfile %s/%s (a profile's localQueueName is looked up in its own namespace)",
			cq, like, p.namespace, p.name)
	}
	return nil
}

// streamQueues adds the LocalQueues the workloads name.
func (c *completion) streamQueues() error {
	votes := map[[2]string]map[string]int{}
	for _, r := range c.recs {
		key := [2]string{r.Namespace, r.Queue}
		if _, ok := c.d.localQueues[key]; ok {
			continue
		}
		if votes[key] == nil {
			votes[key] = map[string]int{}
		}
		if r.ClusterQueue != "" {
			votes[key][r.ClusterQueue]++
		}
	}
	for _, key := range sortedLocalQueues(votes) {
		cq := mostVoted(votes[key], sanitizeSubdomain(key[0]+"-"+key[1]))
		named := "the one that admitted them (status.admission)"
		if len(votes[key]) == 0 {
			named = "named <namespace>-<queue>: none of them was admitted"
		}
		if err := c.localQueue(key, cq); err != nil {
			return err
		}
		c.say("LocalQueue "+key[0]+"/"+key[1], "to ClusterQueue %s, %s; the workloads name it and %s lacks it", cq, named, c.lacks)
	}
	return nil
}

func (c *completion) localQueue(key [2]string, cq string) error {
	c.d.localQueues[key] = cq
	return c.add("LocalQueue", &kueue.LocalQueue{
		ObjectMeta: metav1.ObjectMeta{Name: key[1], Namespace: key[0]},
		Spec:       kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)},
	})
}

// clusterQueues infers each ClusterQueue a LocalQueue names and nobody
// declares, sized to the workloads of the LocalQueues that name it.
func (c *completion) clusterQueues() error {
	dangling := c.d.danglingLocalQueues()
	if len(dangling) == 0 {
		return nil
	}
	why := c.lacks + " has no ClusterQueue of that name"
	if c.forbidden("clusterqueues." + kueue.SchemeGroupVersion.Group) {
		why = "ClusterQueues could not be listed"
	}
	for _, name := range sortedKeys(dangling) {
		lqs := map[[2]string]bool{}
		var names []string
		for _, lq := range dangling[name] {
			lqs[lq] = true
			names = append(names, lq[0]+"/"+lq[1])
		}
		var recs []record
		for _, r := range c.recs {
			if lqs[[2]string{r.Namespace, r.Queue}] {
				recs = append(recs, r)
			}
		}
		cq := inferClusterQueue(name, recs, c.now)
		if err := c.add("ClusterQueue", cq); err != nil {
			return err
		}
		c.d.clusterQueues[name] = true
		c.say("ClusterQueue "+name, "for LocalQueue %s (%s), in Cohort %s with nominal quota on ResourceFlavor %s = the peak of what its %s held at once",
			strings.Join(names, ", "), why, InferredCohort, InferredFlavor, plural(len(recs), "workload"))
	}
	if !c.d.flavors[InferredFlavor] {
		if err := c.add("ResourceFlavor", &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: InferredFlavor}}); err != nil {
			return err
		}
		c.d.flavors[InferredFlavor] = true
		c.say("ResourceFlavor "+InferredFlavor, "the inferred ClusterQueues' flavor, without node labels: any node")
	}
	if !c.d.cohorts[InferredCohort] {
		if err := c.add("Cohort", &kueue.Cohort{ObjectMeta: metav1.ObjectMeta{Name: InferredCohort}}); err != nil {
			return err
		}
		c.d.cohorts[InferredCohort] = true
		c.say("Cohort "+InferredCohort, "the inferred ClusterQueues' cohort")
	}
	return nil
}

// flavors adds a ResourceFlavor, without node labels, for each flavor the
// ClusterQueues name and nobody declares.
func (c *completion) flavors() error {
	why := c.lacks + " has no ResourceFlavor of that name"
	if c.forbidden("resourceflavors." + kueue.SchemeGroupVersion.Group) {
		why = "ResourceFlavors could not be listed"
	}
	for _, name := range sortedKeys(c.d.flavorUsers) {
		if c.d.flavors[name] {
			continue
		}
		if err := c.add("ResourceFlavor", &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
			return err
		}
		c.d.flavors[name] = true
		users := append([]string(nil), c.d.flavorUsers[name]...)
		sort.Strings(users)
		c.say("ResourceFlavor "+name, "without node labels (any node), for ClusterQueue %s (%s)", strings.Join(users, ", "), why)
	}
	return nil
}

// priorityClasses adds the WorkloadPriorityClasses the workloads and the
// profiles name and nobody declares.
func (c *completion) priorityClasses() error {
	values := priorityValues(c.recs)
	named := map[string]string{}
	for name := range values {
		named[name] = "from the workloads' spec.priority"
	}
	for _, p := range c.d.profiles {
		if _, ok := named[p.priorityClass]; !ok && p.priorityClass != "" {
			named[p.priorityClass] = fmt.Sprintf("for HardwareProfile %s/%s: no workload carried it", p.namespace, p.name)
		}
	}
	for _, name := range sortedKeys(named) {
		if c.d.priorities[name] {
			continue
		}
		obj := &kueue.WorkloadPriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: values[name]}
		if err := c.add("WorkloadPriorityClass", obj); err != nil {
			return err
		}
		c.d.priorities[name] = true
		c.say("WorkloadPriorityClass "+name, "value %d %s; %s lacks it", values[name], named[name], c.lacks)
	}
	return nil
}

// sortedLocalQueues are m's {namespace, name} keys, sorted.
func sortedLocalQueues[V any](m map[[2]string]V) [][2]string {
	keys := make([][2]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	return keys
}
