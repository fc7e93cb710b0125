package scenarios

import (
	"fmt"
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/sim/nodes"
)

// Limits that keep a scenario from exhausting the machine.
const (
	MaxStreamCount   = 100_000
	MaxWorkloads     = 200_000
	MaxReplicas      = 1_000
	MaxSimulatedTime = 365 * 24 * 3600 // seconds
)

// Validate checks the whole (defaulted) scenario and returns every problem.
func Validate(s *Scenario) field.ErrorList {
	v := &validator{s: s,
		flavors: sets.New[string](), cohorts: sets.New[string](), cqs: sets.New[string](),
		priorities: sets.New[string](), teams: map[string]*Team{}, streams: sets.New[string](),
		profiles: map[string]*HardwareProfile{},
	}
	var errs field.ErrorList
	if s.APIVersion != APIVersion {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), s.APIVersion, "must be "+APIVersion))
	}
	if s.Kind != Kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), s.Kind, "must be "+Kind))
	}
	if s.End != nil {
		errs = append(errs, positiveDuration(field.NewPath("end"), s.End)...)
	}
	errs = append(errs, v.cluster(field.NewPath("cluster"))...)
	errs = append(errs, v.queues(field.NewPath("queues"))...)
	errs = append(errs, v.teamList(field.NewPath("teams"))...)
	errs = append(errs, v.profileList(field.NewPath("queues", "hardwareProfiles"))...)
	errs = append(errs, v.streamList(field.NewPath("workloads"))...)
	errs = append(errs, v.expectations(field.NewPath("expectations"))...)
	return errs
}

type validator struct {
	s          *Scenario
	flavors    sets.Set[string]
	cohorts    sets.Set[string]
	cqs        sets.Set[string]
	priorities sets.Set[string]
	teams      map[string]*Team
	streams    sets.Set[string]
	profiles   map[string]*HardwareProfile
}

func (v *validator) cluster(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(v.s.Cluster.NodePools) == 0 {
		errs = append(errs, field.Required(p.Child("nodePools"), "give at least one node pool, e.g. {name: a100, count: 2, allocatable: {cpu: \"96\", memory: 1Ti, nvidia.com/gpu: \"8\"}}"))
	}
	errs = append(errs, nodes.Spec{Pools: v.s.Cluster.NodePools}.Validate(p.Child("nodePools"))...)
	ms := v.s.Cluster.OpenShiftAI.ManagementState
	if ms != "Managed" && ms != "Unmanaged" && ms != "Removed" {
		errs = append(errs, field.NotSupported(p.Child("openshiftAI", "managementState"), ms, []string{"Unmanaged", "Managed", "Removed"}))
	}
	return errs
}

func (v *validator) queues(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	q := v.s.Queues
	for i, f := range q.ResourceFlavors {
		fp := p.Child("resourceFlavors").Index(i)
		errs = append(errs, v.uniqueName(fp.Child("name"), f.Name, v.flavors)...)
		errs = append(errs, labelMap(fp.Child("nodeLabels"), f.NodeLabels)...)
	}
	for i, c := range q.Cohorts {
		errs = append(errs, v.uniqueName(p.Child("cohorts").Index(i).Child("name"), c.Name, v.cohorts)...)
	}
	for i, c := range q.Cohorts {
		cp := p.Child("cohorts").Index(i)
		if c.Parent != "" && !v.cohorts.Has(c.Parent) {
			errs = append(errs, field.NotFound(cp.Child("parent"), c.Parent))
		}
		errs = append(errs, weight(cp.Child("fairSharingWeight"), c.FairSharingWeight)...)
	}
	errs = append(errs, v.cohortCycles(p.Child("cohorts"))...)
	for i, pc := range q.PriorityClasses {
		errs = append(errs, v.uniqueName(p.Child("priorityClasses").Index(i).Child("name"), pc.Name, v.priorities)...)
	}
	for i := range q.ClusterQueues {
		errs = append(errs, v.clusterQueue(p.Child("clusterQueues").Index(i), &q.ClusterQueues[i])...)
	}
	return errs
}

func (v *validator) cohortCycles(p *field.Path) field.ErrorList {
	parent := map[string]string{}
	for _, c := range v.s.Queues.Cohorts {
		parent[c.Name] = c.Parent
	}
	for i, c := range v.s.Queues.Cohorts {
		seen := sets.New(c.Name)
		for at := parent[c.Name]; at != ""; at = parent[at] {
			if seen.Has(at) {
				return field.ErrorList{field.Invalid(p.Index(i).Child("parent"), c.Parent, "cohorts form a cycle: a cohort cannot be its own ancestor")}
			}
			seen.Insert(at)
		}
	}
	return nil
}

func (v *validator) clusterQueue(p *field.Path, cq *ClusterQueue) field.ErrorList {
	errs := v.uniqueName(p.Child("name"), cq.Name, v.cqs)
	if cq.Cohort != "" && len(v.s.Queues.Cohorts) > 0 && !v.cohorts.Has(cq.Cohort) {
		errs = append(errs, field.NotFound(p.Child("cohort"), cq.Cohort))
		errs[len(errs)-1].Detail = "declare it under queues.cohorts (or declare no cohorts at all to let ClusterQueues name them freely)"
	}
	if len(cq.ResourceGroups) == 0 {
		errs = append(errs, field.Required(p.Child("resourceGroups"), "give at least one group, e.g. [{flavors: [{name: a100, resources: {nvidia.com/gpu: {nominal: 8}}}]}]"))
	}
	seenFlavor, seenRes := sets.New[string](), sets.New[corev1.ResourceName]()
	for gi, g := range cq.ResourceGroups {
		gp := p.Child("resourceGroups").Index(gi)
		if len(g.Flavors) == 0 {
			errs = append(errs, field.Required(gp.Child("flavors"), "a group needs at least one flavor"))
		}
		groupRes := sets.New[corev1.ResourceName]()
		for fi, f := range g.Flavors {
			fp := gp.Child("flavors").Index(fi)
			if !v.flavors.Has(f.Name) {
				errs = append(errs, field.NotFound(fp.Child("name"), f.Name))
				errs[len(errs)-1].Detail = "declare it under queues.resourceFlavors"
			}
			if seenFlavor.Has(f.Name) {
				errs = append(errs, field.Duplicate(fp.Child("name"), f.Name))
			}
			seenFlavor.Insert(f.Name)
			if len(f.Resources) == 0 {
				errs = append(errs, field.Required(fp.Child("resources"), "give quotas, e.g. {nvidia.com/gpu: {nominal: 8}}"))
			}
			for r, q := range f.Resources {
				rp := fp.Child("resources").Key(string(r))
				groupRes.Insert(r)
				errs = append(errs, nonNegative(rp.Child("nominal"), &q.Nominal)...)
				errs = append(errs, nonNegative(rp.Child("borrowingLimit"), q.BorrowingLimit)...)
				errs = append(errs, nonNegative(rp.Child("lendingLimit"), q.LendingLimit)...)
				if q.LendingLimit != nil && q.LendingLimit.Cmp(q.Nominal) > 0 {
					errs = append(errs, field.Invalid(rp.Child("lendingLimit"), q.LendingLimit.String(), "must not exceed nominal"))
				}
				if cq.Cohort == "" && (q.BorrowingLimit != nil || q.LendingLimit != nil) {
					errs = append(errs, field.Forbidden(rp, "borrowingLimit and lendingLimit need the ClusterQueue in a cohort"))
				}
			}
		}
		for r := range groupRes {
			if seenRes.Has(r) {
				errs = append(errs, field.Duplicate(gp.Child("flavors"), string(r)))
				errs[len(errs)-1].Detail = fmt.Sprintf("resource %s is covered by two groups: keep it in one", r)
			}
		}
		seenRes = seenRes.Union(groupRes)
	}
	if pr := cq.Preemption; pr != nil {
		pp := p.Child("preemption")
		errs = append(errs, enum(pp.Child("withinClusterQueue"), string(pr.WithinClusterQueue), string(kueue.PreemptionPolicyNever), string(kueue.PreemptionPolicyLowerPriority), string(kueue.PreemptionPolicyLowerOrNewerEqualPriority))...)
		errs = append(errs, enum(pp.Child("reclaimWithinCohort"), string(pr.ReclaimWithinCohort), string(kueue.PreemptionPolicyNever), string(kueue.PreemptionPolicyLowerPriority), string(kueue.PreemptionPolicyAny))...)
	}
	errs = append(errs, weight(p.Child("fairSharingWeight"), cq.FairSharingWeight)...)
	return errs
}

func (v *validator) teamList(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	namespaces := sets.New[string]()
	for i := range v.s.Teams {
		t := &v.s.Teams[i]
		tp := p.Index(i)
		if _, dup := v.teams[t.Name]; dup {
			errs = append(errs, field.Duplicate(tp.Child("name"), t.Name))
		}
		v.teams[t.Name] = t
		errs = append(errs, dnsLabel(tp.Child("name"), t.Name)...)
		errs = append(errs, dnsLabel(tp.Child("namespace"), t.Namespace)...)
		if namespaces.Has(t.Namespace) {
			errs = append(errs, field.Duplicate(tp.Child("namespace"), t.Namespace))
		}
		namespaces.Insert(t.Namespace)
		errs = append(errs, labelMap(tp.Child("labels"), t.Labels)...)
		lqs := sets.New[string]()
		for j, lq := range t.LocalQueues {
			lp := tp.Child("localQueues").Index(j)
			errs = append(errs, v.uniqueName(lp.Child("name"), lq.Name, lqs)...)
			if !v.cqs.Has(lq.ClusterQueue) {
				errs = append(errs, field.NotFound(lp.Child("clusterQueue"), lq.ClusterQueue))
				errs[len(errs)-1].Detail = "declare it under queues.clusterQueues"
			}
		}
	}
	return errs
}

func (v *validator) profileList(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range v.s.Queues.HardwareProfiles {
		hp := &v.s.Queues.HardwareProfiles[i]
		hpp := p.Index(i)
		if _, dup := v.profiles[hp.Name]; dup {
			errs = append(errs, field.Duplicate(hpp.Child("name"), hp.Name))
		}
		v.profiles[hp.Name] = hp
		errs = append(errs, dnsLabel(hpp.Child("name"), hp.Name)...)
		switch {
		case hp.LocalQueue == "" && len(hp.NodeSelector) == 0:
			errs = append(errs, field.Required(hpp.Child("localQueue"), "a profile either sends workloads to a LocalQueue (localQueue) or pins them to nodes (nodeSelector)"))
		case hp.LocalQueue != "" && len(hp.NodeSelector) > 0:
			errs = append(errs, field.Forbidden(hpp.Child("nodeSelector"), "a Queue profile leaves placement to its LocalQueue's flavors: drop nodeSelector or localQueue"))
		case hp.LocalQueue != "" && !v.teamHasQueue(hp.Namespace, hp.LocalQueue):
			errs = append(errs, field.NotFound(hpp.Child("localQueue"), hp.LocalQueue))
			errs[len(errs)-1].Detail = fmt.Sprintf("no team with namespace %q has this LocalQueue", hp.Namespace)
		}
		if hp.PriorityClass != "" && !v.priorities.Has(hp.PriorityClass) {
			errs = append(errs, field.NotFound(hpp.Child("priorityClass"), hp.PriorityClass))
		}
	}
	return errs
}

func (v *validator) teamHasQueue(namespace, lq string) bool {
	for _, t := range v.teams {
		if t.Namespace != namespace {
			continue
		}
		for _, q := range t.LocalQueues {
			if q.Name == lq {
				return true
			}
		}
	}
	return false
}

func (v *validator) streamList(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	var total int64
	for i := range v.s.Workloads {
		w := &v.s.Workloads[i]
		wp := p.Index(i)
		errs = append(errs, v.uniqueName(wp.Child("name"), w.Name, v.streams)...)
		team, ok := v.teams[w.Team]
		if !ok {
			errs = append(errs, field.NotFound(wp.Child("team"), w.Team))
			errs[len(errs)-1].Detail = "declare it under teams"
		}
		if !kindKnown(w.Kind) {
			errs = append(errs, field.NotSupported(wp.Child("kind"), w.Kind, kindNames()))
		}
		if c := *w.Count; c < 1 || c > MaxStreamCount {
			errs = append(errs, field.Invalid(wp.Child("count"), c, fmt.Sprintf("must be between 1 and %d", MaxStreamCount)))
		} else {
			total += int64(c)
		}
		errs = append(errs, arrival(wp.Child("arrival"), w)...)
		if w.Duration != nil {
			errs = append(errs, distribution(wp.Child("duration"), w.Duration)...)
		}
		if w.RunUntil != nil {
			errs = append(errs, positiveDuration(wp.Child("runUntil"), w.RunUntil)...)
		}
		if r := *w.Replicas; r < 1 || r > MaxReplicas {
			errs = append(errs, field.Invalid(wp.Child("replicas"), r, fmt.Sprintf("must be between 1 and %d", MaxReplicas)))
		}
		if w.Kind == KindNotebook && *w.Replicas != 1 {
			errs = append(errs, field.Invalid(wp.Child("replicas"), *w.Replicas, "a Notebook runs one pod"))
		}
		if len(w.Requests) == 0 {
			errs = append(errs, field.Required(wp.Child("requests"), "give each pod's requests, e.g. {cpu: \"4\", memory: 32Gi, nvidia.com/gpu: \"1\"}"))
		}
		for r, q := range w.Requests {
			errs = append(errs, nonNegative(wp.Child("requests").Key(string(r)), &q)...)
		}
		if w.Queue != "" && w.HardwareProfile != "" {
			errs = append(errs, field.Forbidden(wp.Child("hardwareProfile"), "give queue or hardwareProfile, not both: the profile sets the queue"))
		}
		if w.Queue != "" && team != nil && !v.teamHasQueue(team.Namespace, w.Queue) {
			errs = append(errs, field.NotFound(wp.Child("queue"), w.Queue))
			errs[len(errs)-1].Detail = fmt.Sprintf("team %s has no such LocalQueue", w.Team)
		}
		if w.HardwareProfile != "" {
			if _, ok := v.profiles[w.HardwareProfile]; !ok {
				errs = append(errs, field.NotFound(wp.Child("hardwareProfile"), w.HardwareProfile))
			}
		}
		if w.PriorityClass != "" && !v.priorities.Has(w.PriorityClass) {
			errs = append(errs, field.NotFound(wp.Child("priorityClass"), w.PriorityClass))
			errs[len(errs)-1].Detail = "declare it under queues.priorityClasses"
		}
	}
	if total > MaxWorkloads {
		errs = append(errs, field.Invalid(p, total, fmt.Sprintf("%d workloads in all, over the limit of %d", total, MaxWorkloads)))
	}
	return errs
}

func arrival(p *field.Path, w *Stream) field.ErrorList {
	a := w.Arrival
	var errs field.ErrorList
	set := 0
	if len(a.At) > 0 {
		set++
		if int32(len(a.At)) != *w.Count {
			errs = append(errs, field.Invalid(p.Child("at"), len(a.At), fmt.Sprintf("lists %d times but count is %d: drop count or make them agree", len(a.At), *w.Count)))
		}
		for i := range a.At {
			errs = append(errs, simTime(p.Child("at").Index(i), &a.At[i])...)
		}
	}
	if a.Every != nil {
		set++
		errs = append(errs, positiveDuration(p.Child("every"), a.Every)...)
	}
	if a.Poisson != nil {
		set++
		errs = append(errs, positiveDuration(p.Child("poisson"), a.Poisson)...)
	}
	if set > 1 {
		errs = append(errs, field.Invalid(p, "", "give one of at, every or poisson"))
	}
	if a.Start != nil {
		if a.Every == nil && a.Poisson == nil {
			errs = append(errs, field.Forbidden(p.Child("start"), "start offsets every and poisson arrivals only"))
		}
		errs = append(errs, simTime(p.Child("start"), a.Start)...)
	}
	return errs
}

func distribution(p *field.Path, d *Distribution) field.ErrorList {
	var errs field.ErrorList
	set := 0
	if d.Fixed != nil {
		set++
		errs = append(errs, positiveDuration(p.Child("fixed"), d.Fixed)...)
	}
	if d.Exponential != nil {
		set++
		errs = append(errs, positiveDuration(p.Child("exponential"), d.Exponential)...)
	}
	if d.LogNormal != nil {
		set++
		errs = append(errs, positiveDuration(p.Child("lognormal", "median"), &d.LogNormal.Median)...)
		if s := d.LogNormal.Sigma; !(s > 0 && s <= 5) {
			errs = append(errs, field.Invalid(p.Child("lognormal", "sigma"), s, "must be in (0, 5]"))
		}
	}
	if set != 1 {
		errs = append(errs, field.Invalid(p, "", "give exactly one of fixed, exponential or lognormal"))
	}
	return errs
}

func (v *validator) expectations(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, e := range v.s.Expectations {
		ep := p.Index(i)
		errs = append(errs, v.uniqueName(ep.Child("name"), e.Name, names)...)
		set := 0
		if e.NoEviction != nil {
			set++
			for j, k := range e.NoEviction.Kinds {
				if !kindKnown(k) {
					errs = append(errs, field.NotSupported(ep.Child("noEviction", "kinds").Index(j), k, kindNames()))
				}
			}
		}
		if e.PlacementMatchesFlavor != nil {
			set++
		}
		if f := e.FairShare; f != nil {
			set++
			if !v.cohorts.Has(f.Cohort) && !v.cqCohort(f.Cohort) {
				errs = append(errs, field.NotFound(ep.Child("fairShare", "cohort"), f.Cohort))
			}
			errs = append(errs, fraction(ep.Child("fairShare", "tolerance"), f.Tolerance)...)
			if f.Resource == "" {
				errs = append(errs, field.Required(ep.Child("fairShare", "resource"), "e.g. nvidia.com/gpu"))
			}
		}
		if q := e.QueueWait; q != nil {
			set++
			qp := ep.Child("queueWait")
			if q.Team != "" && v.teams[q.Team] == nil {
				errs = append(errs, field.NotFound(qp.Child("team"), q.Team))
			}
			if q.Stream != "" && !v.streams.Has(q.Stream) {
				errs = append(errs, field.NotFound(qp.Child("stream"), q.Stream))
			}
			if !(q.Percentile > 0 && q.Percentile <= 100) {
				errs = append(errs, field.Invalid(qp.Child("percentile"), q.Percentile, "must be in (0, 100], e.g. 95"))
			}
			errs = append(errs, simTime(qp.Child("max"), &q.Max)...)
		}
		if u := e.Utilization; u != nil {
			set++
			if !v.flavors.Has(u.Flavor) {
				errs = append(errs, field.NotFound(ep.Child("utilization", "flavor"), u.Flavor))
			}
			if u.Resource == "" {
				errs = append(errs, field.Required(ep.Child("utilization", "resource"), "e.g. nvidia.com/gpu"))
			}
			errs = append(errs, fraction(ep.Child("utilization", "min"), u.Min)...)
		}
		if c := e.Counts; c != nil {
			set++
			if !v.streams.Has(c.Stream) {
				errs = append(errs, field.NotFound(ep.Child("counts", "stream"), c.Stream))
			}
			for name, n := range map[string]*int32{"admitted": c.Admitted, "refused": c.Refused, "preempted": c.Preempted, "finished": c.Finished} {
				if n != nil && *n < 0 {
					errs = append(errs, field.Invalid(ep.Child("counts", name), *n, "must not be negative"))
				}
			}
		}
		if set != 1 {
			errs = append(errs, field.Invalid(ep, e.Name, "give exactly one check: noEviction, placementMatchesFlavor, fairShare, queueWait, utilization or counts"))
		}
	}
	return errs
}

func (v *validator) cqCohort(name string) bool {
	for _, cq := range v.s.Queues.ClusterQueues {
		if cq.Cohort == name && name != "" {
			return true
		}
	}
	return false
}

func (v *validator) uniqueName(p *field.Path, name string, seen sets.Set[string]) field.ErrorList {
	errs := dnsSubdomain(p, name)
	if seen.Has(name) {
		errs = append(errs, field.Duplicate(p, name))
	}
	seen.Insert(name)
	return errs
}

func dnsSubdomain(p *field.Path, name string) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Subdomain(name) {
		errs = append(errs, field.Invalid(p, name, msg))
	}
	return errs
}

func dnsLabel(p *field.Path, name string) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Label(name) {
		errs = append(errs, field.Invalid(p, name, msg))
	}
	return errs
}

func labelMap(p *field.Path, m map[string]string) field.ErrorList {
	var errs field.ErrorList
	for k, val := range m {
		for _, msg := range validation.IsQualifiedName(k) {
			errs = append(errs, field.Invalid(p.Key(k), k, msg))
		}
		for _, msg := range validation.IsValidLabelValue(val) {
			errs = append(errs, field.Invalid(p.Key(k), val, msg))
		}
	}
	return errs
}

func nonNegative(p *field.Path, q *resource.Quantity) field.ErrorList {
	if q != nil && q.Sign() < 0 {
		return field.ErrorList{field.Invalid(p, q.String(), "must not be negative")}
	}
	return nil
}

func weight(p *field.Path, q *resource.Quantity) field.ErrorList {
	if q == nil {
		return nil
	}
	if q.Sign() < 0 {
		return field.ErrorList{field.Invalid(p, q.String(), "must not be negative (0 means always last)")}
	}
	return nil
}

func positiveDuration(p *field.Path, d *metav1.Duration) field.ErrorList {
	if d.Duration <= 0 {
		return field.ErrorList{field.Invalid(p, d.Duration.String(), "must be positive, e.g. 30m")}
	}
	return simTime(p, d)
}

func simTime(p *field.Path, d *metav1.Duration) field.ErrorList {
	if d.Duration < 0 || d.Duration.Seconds() > MaxSimulatedTime {
		return field.ErrorList{field.Invalid(p, d.Duration.String(), "must be between 0 and one year (8760h)")}
	}
	return nil
}

func fraction(p *field.Path, f float64) field.ErrorList {
	if math.IsNaN(f) || f < 0 || f > 1 {
		return field.ErrorList{field.Invalid(p, f, "must be a fraction between 0 and 1, e.g. 0.1")}
	}
	return nil
}

func enum(p *field.Path, val string, allowed ...string) field.ErrorList {
	if val == "" {
		return nil
	}
	for _, a := range allowed {
		if val == a {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p, val, allowed)}
}

func kindKnown(k WorkloadKind) bool {
	for _, known := range Kinds {
		if k == known {
			return true
		}
	}
	return false
}

func kindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = string(k)
	}
	return out
}

