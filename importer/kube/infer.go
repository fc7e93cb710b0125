package kube

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/nodes"
)

// Names of the inferred objects.
const (
	InferredFlavor = "default"
	InferredCohort = "imported"
)

// Node shape of an inferred pool, each raised to the largest pod's request
// where that is larger.
var (
	inferredCPU    = resource.MustParse("64")
	inferredMemory = resource.MustParse("512Gi")
	inferredGPUs   = resource.MustParse("8")
)

// flavorNodes are the nodes a flavor selects: its node labels and taints.
type flavorNodes struct {
	Name   string
	Labels map[string]string
	Taints []corev1.Taint
}

// inferPools makes one node pool per flavor, sized to cover the demand
// Kueue admitted on the flavor at once (status.admission; resources
// without an assignment go to the first flavor): nodes of 64 CPUs, 512Gi
// and, when GPUs are asked for, 8 nvidia.com/gpu, each raised to the
// largest pod's request; as many as the most demanding of those resources
// needs, at least one; other resources spread over those nodes. A flavor
// with no demand gets one node.
func inferPools(flavors []flavorNodes, recs []record, now time.Time) []nodes.Pool {
	pools := make([]nodes.Pool, 0, len(flavors))
	fallback := ""
	if len(flavors) > 0 {
		fallback = flavors[0].Name
	}
	for _, f := range flavors {
		d := demandOf(recs, now, onFlavor(f.Name, fallback))
		count, alloc := sizeNodes(d)
		pools = append(pools, nodes.Pool{
			Name: sanitizeSubdomain(f.Name), Count: count, Labels: f.Labels, Taints: f.Taints, Allocatable: alloc,
		})
	}
	return pools
}

// sizeNodes picks the node shape and count for a demand.
func sizeNodes(d demand) (int, corev1.ResourceList) {
	need := d.need()
	shape := corev1.ResourceList{corev1.ResourceCPU: inferredCPU.DeepCopy(), corev1.ResourceMemory: inferredMemory.DeepCopy()}
	if q, ok := need[nodes.GPUResource]; ok && q.Sign() > 0 {
		shape[nodes.GPUResource] = inferredGPUs.DeepCopy()
	}
	maxInto(shape, onlyOf(d.LargestPod, shape))
	count := int64(1)
	for name, q := range shape {
		count = max(count, ceilDiv(need[name], q))
	}
	for name, q := range need {
		if _, ok := shape[name]; ok || name == corev1.ResourcePods {
			continue
		}
		per := (q.Value() + count - 1) / count
		v := *resource.NewQuantity(per, q.Format)
		if lp, ok := d.LargestPod[name]; ok && lp.Cmp(v) > 0 {
			v = lp.DeepCopy()
		}
		shape[name] = v
	}
	return int(min(count, nodes.MaxNodes)), shape
}

// inferredQueues are the Kueue objects of a scenario inferred from its
// workloads alone.
type inferredQueues struct {
	// LocalQueue per namespace/queue name: its ClusterQueue.
	LocalQueues map[[2]string]string
	Manifests   Manifests
}

// inferQueues makes one ResourceFlavor (default), one Cohort (imported),
// one ClusterQueue per ClusterQueue the workloads were admitted by
// (status.admission.clusterQueue; a LocalQueue whose workloads name none
// gets <namespace>-<queue>) with nominal quota on the default flavor equal
// to the peak of what its workloads held at once (at least the largest
// workload), the LocalQueues, and a WorkloadPriorityClass per priority
// class named, with the value its workloads carried.
func inferQueues(recs []record, now time.Time) (*inferredQueues, error) {
	iq := &inferredQueues{LocalQueues: map[[2]string]string{}, Manifests: Manifests{}}
	votes := map[[2]string]map[string]int{}
	for _, r := range recs {
		lq := [2]string{r.Namespace, r.Queue}
		if votes[lq] == nil {
			votes[lq] = map[string]int{}
		}
		if r.ClusterQueue != "" {
			votes[lq][r.ClusterQueue]++
		}
	}
	for lq, v := range votes {
		iq.LocalQueues[lq] = mostVoted(v, sanitizeSubdomain(lq[0]+"-"+lq[1]))
	}
	byCQ := map[string][]record{}
	for _, r := range recs {
		cq := iq.LocalQueues[[2]string{r.Namespace, r.Queue}]
		byCQ[cq] = append(byCQ[cq], r)
	}
	rf := &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: InferredFlavor}}
	if err := iq.add("ResourceFlavor", rf); err != nil {
		return nil, err
	}
	if err := iq.add("Cohort", &kueue.Cohort{ObjectMeta: metav1.ObjectMeta{Name: InferredCohort}}); err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(byCQ) {
		if err := iq.add("ClusterQueue", inferClusterQueue(name, byCQ[name], now)); err != nil {
			return nil, err
		}
	}
	for lq, cq := range iq.LocalQueues {
		obj := &kueue.LocalQueue{
			ObjectMeta: metav1.ObjectMeta{Name: lq[1], Namespace: lq[0]},
			Spec:       kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)},
		}
		if err := iq.add("LocalQueue", obj); err != nil {
			return nil, err
		}
	}
	for name, value := range priorityValues(recs) {
		obj := &kueue.WorkloadPriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
		if err := iq.add("WorkloadPriorityClass", obj); err != nil {
			return nil, err
		}
	}
	return iq, nil
}

// inferClusterQueue is a ClusterQueue named name, in the inferred cohort,
// open to every namespace, with nominal quota on the inferred flavor equal
// to the peak of what recs held at once (at least the largest workload); no
// resource group when recs ask for nothing.
func inferClusterQueue(name string, recs []record, now time.Time) *kueue.ClusterQueue {
	cq := &kueue.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       kueue.ClusterQueueSpec{CohortName: InferredCohort, NamespaceSelector: &metav1.LabelSelector{}},
	}
	need := demandOf(recs, now, total).need()
	if len(need) == 0 {
		return cq
	}
	fq := kueue.FlavorQuotas{Name: InferredFlavor}
	var covered []corev1.ResourceName
	for _, res := range sortedResources(need) {
		covered = append(covered, res)
		fq.Resources = append(fq.Resources, kueue.ResourceQuota{Name: res, NominalQuota: need[res]})
	}
	cq.Spec.ResourceGroups = []kueue.ResourceGroup{{CoveredResources: covered, Flavors: []kueue.FlavorQuotas{fq}}}
	return cq
}

func (iq *inferredQueues) add(kind string, obj runtime.Object) error {
	m, err := toMap(obj, kueue.SchemeGroupVersion.String(), kind)
	if err != nil {
		return err
	}
	iq.Manifests.Add(kind, m)
	return nil
}

// mostVoted is the name given most often (the first by name on a tie), or
// dflt when none was given.
func mostVoted(votes map[string]int, dflt string) string {
	best, n := dflt, 0
	for _, name := range sortedKeys(votes) {
		if votes[name] > n {
			best, n = name, votes[name]
		}
	}
	return best
}

// priorityValues are the WorkloadPriorityClasses the records name, each with
// the value most of its workloads carried (0 when none did).
func priorityValues(recs []record) map[string]int32 {
	votes := map[string]map[int32]int{}
	for _, r := range recs {
		if r.PriorityClass == "" {
			continue
		}
		if votes[r.PriorityClass] == nil {
			votes[r.PriorityClass] = map[int32]int{}
		}
		if r.Priority != nil {
			votes[r.PriorityClass][*r.Priority]++
		}
	}
	out := map[string]int32{}
	for name, v := range votes {
		var best int32
		n := 0
		for value, c := range v {
			if c > n || (c == n && value < best) {
				best, n = value, c
			}
		}
		out[name] = best
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedResources(l corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// sanitizeSubdomain makes s an object name (a DNS label is one).
func sanitizeSubdomain(s string) string { return sanitize(s) }
