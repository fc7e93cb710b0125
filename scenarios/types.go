package scenarios

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// APIVersion and Kind every scenario file declares.
const (
	APIVersion = "kueue-sim/v1alpha1"
	Kind       = "Scenario"
)

// Scenario describes a cluster, its queues and teams, the workloads they
// submit over simulated time, and what must hold of the run.
type Scenario struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Name identifies the scenario in reports; default: the file name.
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Seed drives every random choice (arrivals, durations); default 1.
	// `sim run --seed` overrides it.
	Seed *int64 `json:"seed,omitempty"`
	// End stops the run at this simulated time; default: when every arrival
	// has happened and every workload with a duration has ended (Kueue's
	// own waits, such as a requeuing back-off, do not keep a run going).
	End *metav1.Duration `json:"end,omitempty"`

	Cluster      Cluster       `json:"cluster"`
	Queues       Queues        `json:"queues,omitempty"`
	Teams        []Team        `json:"teams,omitempty"`
	Workloads    []Stream      `json:"workloads,omitempty"`
	Expectations []Expectation `json:"expectations,omitempty"`
	// Changes change the cluster's objects at simulated times: a quota
	// raised, a ClusterQueue stopped, a LocalQueue deleted while workloads
	// wait in it (changes.go).
	Changes []Change `json:"changes,omitempty"`

	// Loaded is what the loader read from the files the scenario names
	// (queues.manifests, cluster.kueueConfig); not part of the format.
	Loaded Loaded `json:"-"`
}

// Loaded holds what the scenario's other files hold, read and checked by
// the loader so that nothing reads them again.
type Loaded struct {
	// Manifests are the objects of queues.manifests; nil without any.
	Manifests *manifests.Set
	// KueueConfig is the body of cluster.kueueConfig's Configuration in
	// config.kueue.x-k8s.io/v1beta2, without apiVersion and kind.
	KueueConfig map[string]any
	// KueueConfigFile is the path of cluster.kueueConfig.
	KueueConfigFile string
	// Changes are the objects of each change's apply files, by the
	// change's index; nil for a change without apply.
	Changes []*manifests.Set
	// ManagementStateSet tells whether cluster.openshiftAI.managementState
	// was written (before defaults).
	ManagementStateSet bool
}

// KueueSettings is the scenario's Kueue Configuration body for the Kueue
// compiled into this binary: cluster.kueue, or the file cluster.kueueConfig
// names, with the cluster.kueueReleases bodies that select that release
// laid over it.
func (s *Scenario) KueueSettings() map[string]any {
	return s.KueueSettingsFor(kueuerelease.Compiled())
}

// KueueSettingsFor is KueueSettings for Kueue release. The result shares
// nested values with the scenario: read it, never change it.
func (s *Scenario) KueueSettingsFor(release string) map[string]any {
	base := s.Cluster.Kueue
	if s.Cluster.KueueConfig != "" {
		base = s.Loaded.KueueConfig
	}
	for _, key := range releaseKeys(s.Cluster.KueueReleases) {
		if kueuerelease.Matches(key, release) {
			base = mergePatch(base, s.Cluster.KueueReleases[key])
		}
	}
	return base
}

// Cluster is the simulated cluster: nodes, Kueue's configuration and the
// OpenShift AI settings.
type Cluster struct {
	NodePools []nodes.Pool `json:"nodePools"`
	// Kueue is a Kueue Configuration (config.kueue.x-k8s.io/v1beta2) body,
	// without apiVersion and kind: fairSharing, waitForPodsReady,
	// integrations, ... Loaded and validated by Kueue's own loader.
	Kueue map[string]any `json:"kueue,omitempty"`
	// OpenShiftAI are the platform settings; default: Kueue Unmanaged with the
	// Red Hat build of Kueue operator installed.
	OpenShiftAI OpenShiftAI `json:"openshiftAI,omitempty"`
	// KueueConfig is a Kueue Configuration file (config.kueue.x-k8s.io
	// v1beta1 or v1beta2), relative to the scenario; excludes Kueue.
	KueueConfig string `json:"kueueConfig,omitempty"`
	// KueueVersion is the Kueue release that replays the scenario, such as
	// v0.19.2, or a minor, v0.19, for its newest supported release: `sim
	// run` hands the run to that release's sim unless --kueue (or
	// KUEUESIM_KUEUE) names another. Default: the sim's own release.
	KueueVersion string `json:"kueueVersion,omitempty"`
	// KueueReleases are Kueue Configuration bodies per Kueue release
	// ("v0.19.2") or minor ("v0.19"), laid over cluster.kueue (or the file
	// cluster.kueueConfig names) when that Kueue runs the scenario, as a
	// JSON merge patch (RFC 7386): mappings merge, other values replace,
	// null removes. A minor's body applies before a release's. For what
	// one release needs and another refuses: a feature gate only one
	// release knows, a default one release changed.
	KueueReleases map[string]map[string]any `json:"kueueReleases,omitempty"`
}

// OpenShiftAI are the DataScienceCluster and dashboard settings.
type OpenShiftAI struct {
	// ManagementState of the Kueue component: Unmanaged (default), Managed
	// (deprecated) or Removed.
	ManagementState string `json:"managementState,omitempty"`
	// OperatorInstalled says whether the Red Hat build of Kueue operator's
	// CRD is present; default true.
	OperatorInstalled *bool `json:"operatorInstalled,omitempty"`
	// DisableKueue is the dashboard's disableKueue setting.
	DisableKueue bool `json:"disableKueue,omitempty"`
}

// Queues are the Kueue objects of the scenario.
type Queues struct {
	// Manifests are files, folders or globs, relative to the scenario, of
	// multi-document YAML: Kueue objects (v1beta1 or v1beta2), OpenShift AI
	// objects, Namespaces and LocalQueues, applied as they are.
	Manifests        []string          `json:"manifests,omitempty"`
	ResourceFlavors  []ResourceFlavor  `json:"resourceFlavors,omitempty"`
	Cohorts          []Cohort          `json:"cohorts,omitempty"`
	ClusterQueues    []ClusterQueue    `json:"clusterQueues,omitempty"`
	PriorityClasses  []PriorityClass   `json:"priorityClasses,omitempty"`
	HardwareProfiles []HardwareProfile `json:"hardwareProfiles,omitempty"`
}

// ResourceFlavor is a Kueue ResourceFlavor, usually one GPU model.
type ResourceFlavor struct {
	Name        string              `json:"name"`
	NodeLabels  map[string]string   `json:"nodeLabels,omitempty"`
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
}

// Cohort is a Kueue Cohort; ClusterQueues name it to share quota.
type Cohort struct {
	Name   string `json:"name"`
	Parent string `json:"parent,omitempty"`
	// FairSharingWeight weighs the cohort against its siblings.
	FairSharingWeight *resource.Quantity `json:"fairSharingWeight,omitempty"`
}

// ClusterQueue is a Kueue ClusterQueue with quotas per flavor.
type ClusterQueue struct {
	Name   string `json:"name"`
	Cohort string `json:"cohort,omitempty"`
	// ResourceGroups hold quotas; the resources a group covers are those its
	// flavors name (a flavor that omits one gets zero of it).
	ResourceGroups []ResourceGroup `json:"resourceGroups"`
	// Preemption is Kueue's ClusterQueuePreemption.
	Preemption *kueue.ClusterQueuePreemption `json:"preemption,omitempty"`
	// FairSharingWeight is the ClusterQueue's fair-sharing weight.
	FairSharingWeight *resource.Quantity `json:"fairSharingWeight,omitempty"`
	// NamespaceSelector limits which namespaces' LocalQueues may point here;
	// default: every namespace.
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty"`
}

// ResourceGroup is a set of flavors with quotas for the same resources.
type ResourceGroup struct {
	Flavors []FlavorQuotas `json:"flavors"`
}

// FlavorQuotas are a flavor's quotas in a ClusterQueue.
type FlavorQuotas struct {
	Name      string                        `json:"name"`
	Resources map[corev1.ResourceName]Quota `json:"resources"`
}

// Quota of one resource in one flavor.
type Quota struct {
	Nominal        resource.Quantity  `json:"nominal"`
	BorrowingLimit *resource.Quantity `json:"borrowingLimit,omitempty"`
	LendingLimit   *resource.Quantity `json:"lendingLimit,omitempty"`
}

// PriorityClass is a Kueue WorkloadPriorityClass.
type PriorityClass struct {
	Name  string `json:"name"`
	Value int32  `json:"value"`
}

// HardwareProfile is an OpenShift AI hardware profile that sends workloads
// to a LocalQueue.
type HardwareProfile struct {
	Name string `json:"name"`
	// Namespace of the profile; default: the first team's namespace.
	Namespace string `json:"namespace,omitempty"`
	// LocalQueue the profile's workloads go to (scheduling type Queue).
	LocalQueue    string `json:"localQueue,omitempty"`
	PriorityClass string `json:"priorityClass,omitempty"`
	// NodeSelector makes a Node-scheduling profile (refused in Kueue-managed
	// namespaces); it excludes LocalQueue.
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
}

// Team is a namespace with its LocalQueues.
type Team struct {
	Name string `json:"name"`
	// Namespace; default: the team's name.
	Namespace string `json:"namespace,omitempty"`
	// Labels are added to the namespace; kueue-sim adds
	// kueue.openshift.io/managed=true unless Unmanaged is set.
	Labels map[string]string `json:"labels,omitempty"`
	// Unmanaged leaves the namespace out of Kueue management.
	Unmanaged   bool         `json:"unmanaged,omitempty"`
	LocalQueues []LocalQueue `json:"localQueues,omitempty"`
}

// LocalQueue points a team's namespace at a ClusterQueue.
type LocalQueue struct {
	Name         string `json:"name"`
	ClusterQueue string `json:"clusterQueue"`
}

// WorkloadKind is what a stream submits.
type WorkloadKind string

// The kinds a stream can submit.
const (
	KindJob              WorkloadKind = "Job"
	KindPyTorchJob       WorkloadKind = "PyTorchJob"
	KindRayJob           WorkloadKind = "RayJob"
	KindRayCluster       WorkloadKind = "RayCluster"
	KindNotebook         WorkloadKind = "Notebook"
	KindInferenceService WorkloadKind = "InferenceService"
	// KindWorkload is a raw Kueue Workload: no pods, for large runs. A
	// scenario whose every stream is of this kind runs without
	// kube-scheduler and kube-controller-manager, as Kueue's own
	// scheduler-performance harness does.
	KindWorkload WorkloadKind = "Workload"
)

// Kinds lists every WorkloadKind.
var Kinds = []WorkloadKind{KindJob, KindPyTorchJob, KindRayJob, KindRayCluster, KindNotebook, KindInferenceService, KindWorkload}

// Stream generates workloads of one kind for one team.
type Stream struct {
	Name string `json:"name"`
	Team string `json:"team"`
	// Kind is what each arrival submits; with a template, Load sets it
	// from the object's kind (written too, it must agree).
	Kind WorkloadKind `json:"kind"`
	// Count is the number of workloads; default: the number of arrival
	// times for arrival.at, 1 otherwise.
	Count   *int32  `json:"count,omitempty"`
	Arrival Arrival `json:"arrival,omitempty"`
	// Duration is how long each workload runs once all its pods run. Unset:
	// it runs until RunUntil or the end (usual for Notebook, RayCluster and
	// InferenceService).
	Duration *Distribution `json:"duration,omitempty"`
	// RunUntil deletes long-running workloads at this simulated time.
	RunUntil *metav1.Duration `json:"runUntil,omitempty"`
	// Replicas is the number of pods: PyTorchJob 1 master + the rest workers,
	// RayJob/RayCluster 1 head + the rest workers; default 1, but unset
	// beside a template.
	Replicas *int32 `json:"replicas,omitempty"`
	// Requests are each pod's requests (and, for extended resources such as
	// nvidia.com/gpu, limits).
	Requests corev1.ResourceList `json:"requests"`
	// Queue is the LocalQueue label; HardwareProfile instead lets the
	// webhook set it. Neither: the workload has no queue label.
	Queue           string `json:"queue,omitempty"`
	HardwareProfile string `json:"hardwareProfile,omitempty"`
	PriorityClass   string `json:"priorityClass,omitempty"`
	// Fail makes the workloads' pods fail at the end of their duration.
	Fail bool `json:"fail,omitempty"`
	// RequiredNodeAffinity limits the pods to nodes that meet every
	// requirement (a required node affinity with one term). Kueue assigns
	// only flavors whose node labels can meet it. See validate_affinity.go.
	RequiredNodeAffinity []corev1.NodeSelectorRequirement `json:"requiredNodeAffinity,omitempty"`
	// Durations are the workloads' run times one by one, in arrival order
	// (for replayed traces); excludes Duration.
	Durations []metav1.Duration `json:"durations,omitempty"`
	// Template is the user's own object each arrival submits (template.go);
	// it excludes Replicas, Requests and RequiredNodeAffinity, which the
	// object holds. Load sets Kind from the object's kind.
	Template *Template `json:"template,omitempty"`
}

// Arrival says when a stream's workloads arrive. Exactly one field is set;
// default: all at time 0.
type Arrival struct {
	// At lists explicit arrival times.
	At []metav1.Duration `json:"at,omitempty"`
	// Every is a fixed interval, starting at Start.
	Every *metav1.Duration `json:"every,omitempty"`
	// Poisson arrivals with this mean interval, starting at Start.
	Poisson *metav1.Duration `json:"poisson,omitempty"`
	// Start offsets Every and Poisson arrivals.
	Start *metav1.Duration `json:"start,omitempty"`
}

// Distribution of a duration. Exactly one field is set.
type Distribution struct {
	Fixed       *metav1.Duration `json:"fixed,omitempty"`
	Exponential *metav1.Duration `json:"exponential,omitempty"` // mean
	LogNormal   *LogNormal       `json:"lognormal,omitempty"`
	// Empirical durations: each workload runs for one of these, drawn
	// uniformly (a resampling of observed run times, as sim forecast
	// writes for the workloads a live cluster runs now).
	Empirical []metav1.Duration `json:"empirical,omitempty"`
}

// LogNormal durations: median e^mu and shape sigma.
type LogNormal struct {
	Median metav1.Duration `json:"median"`
	Sigma  float64         `json:"sigma"`
}

// Expectation is a named check on the recorded run. Exactly one check is set.
type Expectation struct {
	Name string `json:"name"`

	// NoEviction: no workload of these kinds (default: all) is ever evicted
	// or preempted.
	NoEviction *NoEviction `json:"noEviction,omitempty"`
	// PlacementMatchesFlavor: every pod of an admitted workload runs on a
	// node carrying its assigned flavor's node labels.
	PlacementMatchesFlavor *struct{} `json:"placementMatchesFlavor,omitempty"`
	// FairShare: at every simulated instant, no member of the cohort with
	// workloads waiting held a weighted share (Kueue's
	// status.fairSharing.weightedShare, as observed) lower than another
	// member's by more than Tolerance.
	FairShare *FairShare `json:"fairShare,omitempty"`
	// NominalGuarantee: every ClusterQueue with a waiting workload that
	// fits in its unused nominal quota gets back to its nominal quota (or
	// has no such workload left) within Within.
	NominalGuarantee *NominalGuarantee `json:"nominalGuarantee,omitempty"`
	// QueueWait bounds a percentile of the time from arrival to admission.
	QueueWait *QueueWait `json:"queueWait,omitempty"`
	// Utilization: a flavor's resource is used at least Min of the time-
	// weighted capacity.
	Utilization *Utilization `json:"utilization,omitempty"`
	// Counts: how many workloads of a stream were admitted, refused by the
	// webhook, preempted, finished.
	Counts *Counts `json:"counts,omitempty"`
	// Workload: what happened to one named workload — its flavors and
	// ClusterQueue at admission, when it was admitted or pending, why it
	// was preempted or evicted (see workload_expectation.go).
	Workload *WorkloadExpectation `json:"workload,omitempty"`
	// PendingCounts: Kueue's count of a ClusterQueue's pending workloads,
	// active and inadmissible, at a simulated time (see
	// pending_counts_expectation.go).
	PendingCounts *PendingCountsExpectation `json:"pendingCounts,omitempty"`
}

// NoEviction names the kinds that must never be evicted.
type NoEviction struct {
	Kinds []WorkloadKind `json:"kinds,omitempty"`
}

// FairShare bounds how far a cohort member with waiting workloads may
// trail another member's weighted share, as Kueue published them.
type FairShare struct {
	Cohort string `json:"cohort"`
	// Resource, when set, counts only the waiting workloads that request
	// it (Kueue's shares are of the dominant resource, whichever it is).
	Resource corev1.ResourceName `json:"resource,omitempty"`
	// Tolerance is the largest allowed gap between the weighted share of
	// a member with waiting workloads and a higher member's, as a fraction
	// of the cohort's lendable quota at weight 1: Kueue's weightedShare
	// counts that quota as 1000, so 0.1 allows a gap of 100 (plus 1 for
	// Kueue's rounding up).
	Tolerance float64 `json:"tolerance"`
}

// NominalGuarantee names the ClusterQueue, or the cohort whose
// ClusterQueues (its sub-cohorts' included), must get their nominal quota
// back within Within of simulated time. Exactly one of ClusterQueue and
// Cohort is set.
type NominalGuarantee struct {
	ClusterQueue string          `json:"clusterQueue,omitempty"`
	Cohort       string          `json:"cohort,omitempty"`
	Within       metav1.Duration `json:"within"`
}

// QueueWait bounds a wait percentile.
type QueueWait struct {
	// Team or Stream narrows the workloads (default: all).
	Team       string          `json:"team,omitempty"`
	Stream     string          `json:"stream,omitempty"`
	Percentile float64         `json:"percentile"`
	Max        metav1.Duration `json:"max"`
}

// Utilization is a lower bound on a flavor's use.
type Utilization struct {
	Flavor   string              `json:"flavor"`
	Resource corev1.ResourceName `json:"resource"`
	Min      float64             `json:"min"`
}

// Counts are exact numbers of workloads of a stream; unset fields are not
// checked.
type Counts struct {
	Stream    string `json:"stream"`
	Admitted  *int32 `json:"admitted,omitempty"`
	Refused   *int32 `json:"refused,omitempty"`
	Preempted *int32 `json:"preempted,omitempty"`
	Finished  *int32 `json:"finished,omitempty"`
}
