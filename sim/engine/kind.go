package engine

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// workloadKind is what the engine must know of every kind of workload a
// stream submits: the object an arrival submits. Behaviour only some kinds
// have is in the optional interfaces below, checked with type assertions,
// as in Kueue's jobframework; a kind without one gets the default.
type workloadKind interface {
	// object builds the object an arrival of the kind submits, from the
	// metadata and pod template every kind shares.
	object(o objectSpec) (client.Object, error)
	// fromTemplate makes obj, a copy of a templated stream's object of
	// the kind, the arrival's: objectSpec.stamp and stampPod on each pod
	// template, and what the engine needs to end the object at its
	// simulated duration or make it fail. Nothing else of the object
	// changes: Kueue, the webhooks and kube-scheduler see the spec as
	// written.
	fromTemplate(o objectSpec, obj client.Object) (client.Object, error)
}

// kindWithOperatorPods is a kind whose operator makes pods other than a
// template's pod sets as written: KubeRay adds the submitter (a pod of its
// own in K8sJobMode, a container of the head pod in SidecarMode) and the
// autoscaler sidecar to the head pod. Default: the template's pod sets.
type kindWithOperatorPods interface {
	// operatorPods are the pod sets of a running workload of the
	// template object obj, whose pod sets as written are sets (a copy:
	// operatorPods may change it). obj must not change.
	operatorPods(obj client.Object, sets []scenarios.TemplatePodSet) []scenarios.TemplatePodSet
}

// kindWithSidePods is a kind whose running workload has pods besides one
// per replica (a RayJob's submitter), with requests of their own. Default:
// one pod per replica, each asking the stream's requests.
type kindWithSidePods interface {
	// sidePods are the templates of those other pods, as the kind's
	// object sets them.
	sidePods(o objectSpec) []corev1.PodTemplateSpec
}

// kindWithEnd is a kind whose run ends otherwise than by its running pods
// succeeding (or failing). Default: finishPods.
type kindWithEnd interface {
	// end is the call that ends st's run.
	end(r *Runner, st *wlState) call
}

// kindWithRunning is a kind that runs by another rule than "all its pods
// run, once admitted if Kueue manages it" (endstep.go). It is asked only
// about workloads that are neither refused, finished nor deleted.
type kindWithRunning interface {
	// running tells whether st runs.
	running(st *wlState) bool
}

// kindWithEviction is a kind without a job integration in Kueue to release
// an evicted Workload's quota: the engine completes the eviction instead
// (evictions.go).
type kindWithEviction interface {
	// evictionPending tells whether Kueue evicted wl and the engine must
	// still complete the eviction.
	evictionPending(wl *kueue.Workload) bool
}

// kindWithoutPods is a kind whose workloads make no pods and no objects
// that others own (a raw Workload): a scenario of only such kinds runs
// without kube-scheduler and kube-controller-manager (cluster.WithoutPods).
// Default: its workloads make pods.
type kindWithoutPods interface {
	// withoutPods marks the kind.
	withoutPods()
}

// kindWithOperators is a kind whose objects an operator kueue-sim fakes
// runs (sim/fakes): the fake, and the CRDs of its kinds, are in the
// control plane only when a stream submits the kind (operators).
// Default: none (Kueue itself, or Kubernetes' own controllers, run it).
type kindWithOperators interface {
	// operators are the fake operators the kind's objects need.
	operators() []fakes.Kind
}

// operators are the fake operators the streams of s need, in
// fakes.AllKinds order: empty when no stream submits a kind one runs,
// nil (all of them) for a scenario without streams, which only checks
// the platform's objects, or with a kind the engine does not know.
func operators(s *scenarios.Scenario) []fakes.Kind {
	if len(s.Workloads) == 0 {
		return nil
	}
	need := map[fakes.Kind]bool{}
	for _, st := range s.Workloads {
		k := kindOf(st.Kind)
		if k == nil {
			return nil
		}
		if wo, ok := k.(kindWithOperators); ok {
			for _, o := range wo.operators() {
				need[o] = true
			}
		}
	}
	out := []fakes.Kind{}
	for _, k := range fakes.AllKinds {
		if need[k] {
			out = append(out, k)
		}
	}
	return out
}

// runsPods tells whether any stream of s submits a kind that makes pods
// (see kindWithoutPods); an unknown kind counts as one, and so does a
// scenario without streams, which only checks the platform's objects.
func runsPods(s *scenarios.Scenario) bool {
	if len(s.Workloads) == 0 {
		return true
	}
	for _, st := range s.Workloads {
		if _, none := kindOf(st.Kind).(kindWithoutPods); !none {
			return true
		}
	}
	return false
}

// kinds holds every kind a stream can submit, one kind_*.go file each.
var kinds = map[scenarios.WorkloadKind]workloadKind{
	scenarios.KindJob:              jobKind{},
	scenarios.KindPyTorchJob:       pyTorchJobKind{},
	scenarios.KindRayJob:           rayJobKind{},
	scenarios.KindRayCluster:       rayClusterKind{},
	scenarios.KindNotebook:         notebookKind{},
	scenarios.KindInferenceService: inferenceServiceKind{},
	scenarios.KindWorkload:         rawWorkloadKind{},
}

// lookupKind is the registered kind k, or an error naming it.
func lookupKind(k scenarios.WorkloadKind) (workloadKind, error) {
	if wk, ok := kinds[k]; ok {
		return wk, nil
	}
	return nil, fmt.Errorf("unknown kind %q", k)
}

// kindOf is kind k for its optional behaviours: nil for an unknown kind,
// which then gets every default. WorkloadObject has refused an arrival of
// an unknown kind before anything else asks.
func kindOf(k scenarios.WorkloadKind) workloadKind {
	return kinds[k]
}
