package kube

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// record is one Workload as the import replays it.
type record struct {
	// Name is namespace/name, for notes.
	Name      string
	Namespace string
	Queue     string
	// ClusterQueue is the one that admitted it (status.admission), if any.
	ClusterQueue string
	Kind         scenarios.WorkloadKind
	// PriorityClass is the WorkloadPriorityClass, Priority its value.
	PriorityClass string
	Priority      *int32
	// Replicas pods asking for Requests each.
	Replicas int32
	Requests corev1.ResourceList
	// Total is what the whole workload asks for (every pod set).
	Total corev1.ResourceList
	// Flavors are the flavors Kueue assigned, per resource.
	Flavors map[corev1.ResourceName]string

	Created  time.Time
	Admitted *time.Time // last admission, if admitted
	Finished *time.Time

	// owner is the object the Workload replays from, if of a kind the
	// import reads; podSets are the Workload's.
	owner   *ownerRef
	podSets []kueue.PodSet
	// Template is the owner's manifest the Workload replays, when the
	// import read the owner; nil: rebuilt from its pod sets.
	Template *ownerTemplate
}

// Pod set names Kueue's integrations give (lowercase).
const (
	podSetMaster    = "master"
	podSetWorker    = "worker"
	podSetHead      = "head"
	podSetSubmitter = "submitter"
)

// Labels that tell which OpenShift AI object a Pod or StatefulSet Workload
// comes from, when Kueue copied them (integrations.labelKeysToCopy).
const (
	notebookNameLabel = "notebook-name"
	isvcLabel         = "serving.kserve.io/inferenceservice"
)

// fromWorkload reads a Workload. A Workload without a queue name cannot be
// replayed: ok is false and note says why.
func fromWorkload(wl *kueue.Workload) (r record, note string, ok bool) {
	r = record{
		Name:      wl.Namespace + "/" + wl.Name,
		Namespace: wl.Namespace,
		Queue:     string(wl.Spec.QueueName),
		Created:   wl.CreationTimestamp.Time,
	}
	if r.Queue == "" {
		return r, fmt.Sprintf("%s has no spec.queueName: left out", r.Name), false
	}
	if len(wl.Spec.PodSets) == 0 {
		return r, fmt.Sprintf("%s has no pod sets: left out", r.Name), false
	}
	if ref := wl.Spec.PriorityClassRef; ref != nil {
		if ref.Kind == kueue.WorkloadPriorityClassKind {
			r.PriorityClass = ref.Name
			r.Priority = wl.Spec.Priority
		} else {
			note = fmt.Sprintf("%s: pod priority class %s is not replayed (streams name WorkloadPriorityClasses)", r.Name, ref.Name)
		}
	}
	if adm := wl.Status.Admission; adm != nil {
		r.ClusterQueue = string(adm.ClusterQueue)
		r.Flavors = map[corev1.ResourceName]string{}
		for _, psa := range adm.PodSetAssignments {
			for res, f := range psa.Flavors {
				if _, seen := r.Flavors[res]; !seen {
					r.Flavors[res] = string(f)
				}
			}
		}
	}
	r.Admitted = conditionTime(wl, kueue.WorkloadAdmitted)
	if r.Admitted == nil {
		r.Admitted = conditionTime(wl, kueue.WorkloadQuotaReserved)
	}
	r.Finished = conditionTime(wl, kueue.WorkloadFinished)
	r.Total = corev1.ResourceList{}
	for _, ps := range wl.Spec.PodSets {
		add(r.Total, times(podRequests(&ps.Template.Spec), ps.Count))
	}
	r.Kind, r.Replicas, r.Requests = shapeOf(wl, r.Total)
	r.owner, r.podSets = ownerOf(wl), wl.Spec.PodSets
	return r, note, true
}

// conditionTime is when the condition last became true; nil unless it is.
func conditionTime(wl *kueue.Workload, typ string) *time.Time {
	c := apimeta.FindStatusCondition(wl.Status.Conditions, typ)
	if c == nil || c.Status != metav1.ConditionTrue {
		return nil
	}
	t := c.LastTransitionTime.Time
	return &t
}

// shapeOf maps the Workload to a stream kind, its pod count and each pod's
// requests. The kind comes from the owner; a Workload whose owner is
// unknown, or whose pod sets do not fit that kind's shape (every pod alike,
// PyTorchJob one master, Ray one head and one worker group), is replayed as
// a raw Workload of one pod asking for everything the Workload asks for:
// Kueue sees the same quota; no pods run.
func shapeOf(wl *kueue.Workload, total corev1.ResourceList) (scenarios.WorkloadKind, int32, corev1.ResourceList) {
	sets := map[string]kueue.PodSet{}
	for _, ps := range wl.Spec.PodSets {
		sets[string(ps.Name)] = ps
	}
	raw := func() (scenarios.WorkloadKind, int32, corev1.ResourceList) {
		return scenarios.KindWorkload, 1, total.DeepCopy()
	}
	switch kind := ownerKind(wl); kind {
	case scenarios.KindJob, scenarios.KindNotebook, scenarios.KindInferenceService:
		if len(wl.Spec.PodSets) != 1 {
			return raw()
		}
		ps := wl.Spec.PodSets[0]
		if kind == scenarios.KindNotebook && ps.Count != 1 {
			return raw()
		}
		return kind, ps.Count, podRequests(&ps.Template.Spec)
	case scenarios.KindPyTorchJob:
		return leaderAndWorkers(wl, sets, podSetMaster, podSetWorker, kind, raw)
	case scenarios.KindRayJob, scenarios.KindRayCluster:
		// The RayJob's submitter pod set is left out: the replayed RayJob
		// adds its own.
		workers := ""
		for name := range sets {
			if name != podSetHead && !(kind == scenarios.KindRayJob && name == podSetSubmitter) {
				if workers != "" {
					return raw() // several worker groups
				}
				workers = name
			}
		}
		return leaderAndWorkers(wl, sets, podSetHead, workers, kind, raw)
	}
	return raw()
}

// leaderAndWorkers maps a leader pod set of one pod and an optional worker
// pod set of the same shape to replicas 1 + workers.
func leaderAndWorkers(wl *kueue.Workload, sets map[string]kueue.PodSet, leader, workers string, kind scenarios.WorkloadKind,
	raw func() (scenarios.WorkloadKind, int32, corev1.ResourceList)) (scenarios.WorkloadKind, int32, corev1.ResourceList) {
	l, ok := sets[leader]
	if !ok || l.Count != 1 {
		return raw()
	}
	req := podRequests(&l.Template.Spec)
	n := int32(1)
	expected := 1
	if w, ok := sets[workers]; ok && workers != "" {
		if !sameRequests(req, podRequests(&w.Template.Spec)) {
			return raw()
		}
		n += w.Count
		expected++
	}
	if kind == scenarios.KindRayJob {
		if _, ok := sets[podSetSubmitter]; ok {
			expected++
		}
	}
	if len(wl.Spec.PodSets) != expected {
		return raw()
	}
	return kind, n, req
}

// ownerKind is the stream kind of the Workload's owner; Workload when it
// has none or none kueue-sim replays.
func ownerKind(wl *kueue.Workload) scenarios.WorkloadKind {
	for _, o := range wl.OwnerReferences {
		group := o.APIVersion
		if i := strings.Index(group, "/"); i >= 0 {
			group = group[:i]
		} else {
			group = ""
		}
		switch {
		case group == "batch" && o.Kind == "Job":
			return scenarios.KindJob
		case group == "kubeflow.org" && o.Kind == "PyTorchJob":
			return scenarios.KindPyTorchJob
		case group == "ray.io" && o.Kind == "RayJob":
			return scenarios.KindRayJob
		case group == "ray.io" && o.Kind == "RayCluster":
			return scenarios.KindRayCluster
		case group == "apps" && o.Kind == "StatefulSet":
			// OpenShift AI runs a Notebook as a StatefulSet of one pod.
			if wl.Labels[notebookNameLabel] != "" || wl.Spec.PodSets[0].Template.Labels[notebookNameLabel] != "" || onePod(wl) {
				return scenarios.KindNotebook
			}
		case group == "" && o.Kind == "Pod":
			// KServe's raw deployment runs a predictor Deployment
			// <name>-predictor; Kueue queues each of its pods.
			if wl.Labels[isvcLabel] != "" || strings.Contains(o.Name, "-predictor-") {
				return scenarios.KindInferenceService
			}
		}
	}
	return scenarios.KindWorkload
}

func onePod(wl *kueue.Workload) bool {
	return len(wl.Spec.PodSets) == 1 && wl.Spec.PodSets[0].Count == 1
}
