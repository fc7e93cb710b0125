package forecast

import (
	"fmt"
	"os"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// A backtest hands the history up to a cut to the import that `sim
// forecast --kubeconfig` makes of a live cluster, in the form a cluster
// gives it: a `kubectl get workloads -o yaml` dump whose Workloads stand
// as Kueue shows them at the cut. The dump is built from the recorded run
// (when each workload arrived, was admitted, preempted, finished) and the
// scenario's streams (what each asks for, from which queue), so the
// import reads exactly what it would read from a cluster that ran the
// recorded run.

// BacktestOrigin is the wall-clock instant simulated time 0 stands at in
// a backtest's Workload dumps.
var BacktestOrigin = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// containerImage is the image of the containers a dump's pod sets run: a
// raw Workload has no pods, and the import reads requests only.
const containerImage = "registry.k8s.io/pause:3.10"

// historyAt is the Workloads of run as Kueue shows them at cut: every
// workload that arrived strictly before cut and was neither refused nor
// deleted by then, each with the conditions it had at cut. s is the
// scenario the run replayed: the streams say what each workload asks for.
func historyAt(run *record.Run, s *scenarios.Scenario, cut time.Duration) ([]kueue.Workload, error) {
	var out []kueue.Workload
	for _, w := range run.Workloads {
		if w.Arrived >= cut || w.Refused != nil || (w.Deleted != nil && *w.Deleted <= cut) {
			continue
		}
		st, err := streamOf(s, w)
		if err != nil {
			return nil, err
		}
		out = append(out, workloadAt(w, st, s, cut))
	}
	return out, nil
}

// streamOf is the stream of s that submitted w.
func streamOf(s *scenarios.Scenario, w *record.Workload) (*scenarios.Stream, error) {
	for i := range s.Workloads {
		if s.Workloads[i].Name == w.Stream {
			return &s.Workloads[i], nil
		}
	}
	return nil, fmt.Errorf("the recorded run's workload %s is of stream %q, which the scenario does not have", w.Name, w.Stream)
}

// workloadAt is w as Kueue shows it at cut: finished, admitted, or
// pending (never admitted, or evicted and not admitted again).
func workloadAt(w *record.Workload, st *scenarios.Stream, s *scenarios.Scenario, cut time.Duration) kueue.Workload {
	wl := workloadObject(w, st, s)
	wl.CreationTimestamp = stamp(w.Arrived)
	if ref, ok := ownerRefs[st.Kind]; ok {
		ref.Name = wl.Name
		if st.Kind == scenarios.KindInferenceService {
			// KServe's predictor pods are what Kueue queues.
			ref.Name += "-predictor-0"
			wl.Labels = map[string]string{"serving.kserve.io/inferenceservice": wl.Name}
		}
		wl.OwnerReferences = []metav1.OwnerReference{ref}
	}
	var last *record.Tenure
	for _, t := range w.Tenures() {
		if t.Admission.T.D() <= cut {
			last = &t
		}
	}
	switch {
	case last != nil && w.Finished != nil && w.Finished.T.D() <= cut:
		admitted(&wl, &last.Admission)
		apimeta.SetStatusCondition(&wl.Status.Conditions, condition(kueue.WorkloadFinished, w.Finished.Reason, w.Finished.T.D()))
	case last != nil && (last.End == nil || *last.End > cut):
		admitted(&wl, &last.Admission)
	default:
		apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionFalse,
			Reason: "Pending", LastTransitionTime: stamp(w.Arrived)})
	}
	return wl
}

// admitted sets wl's conditions and admission to those of adm.
func admitted(wl *kueue.Workload, adm *record.Event) {
	at := adm.T.D()
	apimeta.SetStatusCondition(&wl.Status.Conditions, condition(kueue.WorkloadQuotaReserved, "QuotaReserved", at))
	apimeta.SetStatusCondition(&wl.Status.Conditions, condition(kueue.WorkloadAdmitted, "Admitted", at))
	a := &kueue.Admission{ClusterQueue: kueue.ClusterQueueReference(adm.ClusterQueue)}
	for _, ps := range wl.Spec.PodSets {
		flavors := map[corev1.ResourceName]kueue.ResourceFlavorReference{}
		for r, f := range adm.Flavors {
			flavors[corev1.ResourceName(r)] = kueue.ResourceFlavorReference(f)
		}
		count := ps.Count
		a.PodSetAssignments = append(a.PodSetAssignments, kueue.PodSetAssignment{Name: ps.Name, Flavors: flavors, Count: &count})
	}
	wl.Status.Admission = a
}

func condition(typ, reason string, at time.Duration) metav1.Condition {
	if reason == "" {
		reason = typ
	}
	return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: reason, LastTransitionTime: stamp(at)}
}

// stamp is simulated time t as the dump's wall-clock time.
func stamp(t time.Duration) metav1.Time { return metav1.NewTime(BacktestOrigin.Add(t)) }

// workloadObject is w's Workload as its stream submits it, without
// status: its namespace and name, queue, priority and pod sets.
func workloadObject(w *record.Workload, st *scenarios.Stream, s *scenarios.Scenario) kueue.Workload {
	ns, name, _ := strings.Cut(w.Name, "/")
	wl := kueue.Workload{
		TypeMeta:   metav1.TypeMeta{APIVersion: kueue.SchemeGroupVersion.String(), Kind: "Workload"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       kueue.WorkloadSpec{QueueName: kueue.LocalQueueName(queueOf(st, s)), PodSets: podSetsOf(st)},
	}
	if pc := st.PriorityClass; pc != "" {
		wl.Spec.PriorityClassRef = kueue.NewWorkloadPriorityClassRef(pc)
		p := w.Priority
		wl.Spec.Priority = &p
	}
	return wl
}

// queueOf is the LocalQueue the stream's workloads go to: its own, or its
// hardware profile's.
func queueOf(st *scenarios.Stream, s *scenarios.Scenario) string {
	if st.Queue == "" && st.HardwareProfile != "" {
		return s.ProfileQueue(st.HardwareProfile)
	}
	return st.Queue
}

// ownerRefs are the owners Kueue's integrations give each kind's
// Workloads, as the import tells the kinds apart (a StatefulSet of one
// pod is a Notebook's). A raw Workload has none.
var ownerRefs = map[scenarios.WorkloadKind]metav1.OwnerReference{
	scenarios.KindJob:              {APIVersion: "batch/v1", Kind: "Job"},
	scenarios.KindPyTorchJob:       {APIVersion: "kubeflow.org/v1", Kind: "PyTorchJob"},
	scenarios.KindRayJob:           {APIVersion: "ray.io/v1", Kind: "RayJob"},
	scenarios.KindRayCluster:       {APIVersion: "ray.io/v1", Kind: "RayCluster"},
	scenarios.KindNotebook:         {APIVersion: "apps/v1", Kind: "StatefulSet"},
	scenarios.KindInferenceService: {APIVersion: "v1", Kind: "Pod"},
}

// podSetsOf are the pod sets of the stream's workloads as Kueue names and
// counts them: its template's, or one pod set of replicas pods asking for
// its requests (a leader of one pod and the workers, for the kinds that
// have one).
func podSetsOf(st *scenarios.Stream) []kueue.PodSet {
	if st.Template != nil && st.Template.Loaded != nil {
		var out []kueue.PodSet
		for _, ps := range st.Template.Loaded.PodSets() {
			out = append(out, kueue.PodSet{Name: kueue.PodSetReference(ps.Name), Count: ps.Count, Template: ps.Template})
		}
		return out
	}
	replicas := int32(1)
	if st.Replicas != nil {
		replicas = *st.Replicas
	}
	tmpl := corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		RestartPolicy: corev1.RestartPolicyNever,
		Containers: []corev1.Container{{Name: "main", Image: containerImage,
			Resources: scenarios.PodResources(st.Requests)}},
	}}
	if len(st.RequiredNodeAffinity) > 0 {
		tmpl.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: st.RequiredNodeAffinity}}}}}
	}
	leader, workers := "", ""
	switch st.Kind {
	case scenarios.KindPyTorchJob:
		leader, workers = "master", "worker"
	case scenarios.KindRayJob, scenarios.KindRayCluster:
		leader, workers = "head", "workers"
	default:
		return []kueue.PodSet{{Name: kueue.DefaultPodSetName, Count: replicas, Template: tmpl}}
	}
	out := []kueue.PodSet{{Name: kueue.PodSetReference(leader), Count: 1, Template: tmpl}}
	if replicas > 1 {
		out = append(out, kueue.PodSet{Name: kueue.PodSetReference(workers), Count: replicas - 1, Template: *tmpl.DeepCopy()})
	}
	return out
}

// workloadList is a dump as `kubectl get workloads -o yaml` prints it.
type workloadList struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Items      []kueue.Workload `json:"items"`
}

// writeHistory writes wls to path as a `kubectl get workloads -o yaml`
// dump.
func writeHistory(path string, wls []kueue.Workload) error {
	data, err := yaml.Marshal(workloadList{APIVersion: "v1", Kind: "List", Items: wls})
	if err != nil {
		return fmt.Errorf("writing the history: %w", err)
	}
	return os.WriteFile(path, data, 0o644)
}

// writeTargetJob writes the target w as the job file of its forecast: a
// batch Job of its stream's pods when the stream submits Jobs, otherwise
// a raw Workload of its stream's pod sets, which asks Kueue for the same
// quota (but has no pods: see docs/forecast.md). Either carries the
// stream's queue label and priority class.
func writeTargetJob(path string, w *record.Workload, st *scenarios.Stream, s *scenarios.Scenario) error {
	wl := workloadObject(w, st, s)
	labels := map[string]string{QueueLabel: string(wl.Spec.QueueName)}
	var obj any
	switch {
	case st.Kind == scenarios.KindJob && len(wl.Spec.PodSets) == 1:
		if st.PriorityClass != "" {
			labels[priorityClassLabel] = st.PriorityClass
		}
		ps := wl.Spec.PodSets[0]
		obj = struct {
			metav1.TypeMeta `json:",inline"`
			Metadata        metav1.ObjectMeta `json:"metadata"`
			Spec            batchv1.JobSpec   `json:"spec"`
		}{metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
			metav1.ObjectMeta{Namespace: wl.Namespace, Name: wl.Name, Labels: labels},
			batchv1.JobSpec{Parallelism: &ps.Count, Completions: &ps.Count, Template: ps.Template}}
	default:
		wl.Labels = labels
		wl.Spec.QueueName = ""
		obj = struct {
			metav1.TypeMeta `json:",inline"`
			Metadata        metav1.ObjectMeta  `json:"metadata"`
			Spec            kueue.WorkloadSpec `json:"spec"`
		}{wl.TypeMeta, wl.ObjectMeta, wl.Spec}
	}
	data, err := yaml.Marshal(obj)
	if err != nil {
		return fmt.Errorf("writing the job file: %w", err)
	}
	return os.WriteFile(path, data, 0o644)
}

// priorityClassLabel names a job's WorkloadPriorityClass, as Kueue's job
// integrations read it.
const priorityClassLabel = "kueue.x-k8s.io/priority-class"
