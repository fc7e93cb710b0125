package engine

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	kftraining "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

// templatedArrival is arrival 7 of a stream of kind whose template is obj:
// with a queue, a priority class and a hardware profile when full, none of
// them otherwise.
func templatedArrival(kind scenarios.WorkloadKind, obj client.Object, full bool) Arrival {
	st := &scenarios.Stream{
		Name: "train", Team: "research", Kind: kind,
		Template: &scenarios.Template{File: "template.yaml", Loaded: &scenarios.LoadedTemplate{Object: obj, Path: "template.yaml", Line: 1}},
	}
	if full {
		st.Queue, st.PriorityClass, st.HardwareProfile = "gpu", "high", "a100-profile"
	}
	return Arrival{Name: "train-7", Stream: st, Team: &scenarios.Team{Name: "research", Namespace: "research-ns"}, Index: 7}
}

func cpu(q string) corev1.ResourceRequirements {
	return corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(q)}}
}

// userTemplate is a pod template as a user writes one: a label, an init
// container, overhead, a toleration, a node selector, a priority class and
// a gate of its own.
func userTemplate(container, q string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "mine"}},
		Spec: corev1.PodSpec{
			InitContainers:    []corev1.Container{{Name: "fetch", Image: "busybox", Resources: cpu("3")}},
			Containers:        []corev1.Container{{Name: container, Image: "trainer", Resources: cpu(q)}},
			Overhead:          corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")},
			Tolerations:       []corev1.Toleration{{Key: "h100", Operator: corev1.TolerationOpExists}},
			NodeSelector:      map[string]string{"pool": "h100"},
			PriorityClassName: "training",
			SchedulingGates:   []corev1.PodSchedulingGate{{Name: "example.com/mine"}},
			RestartPolicy:     corev1.RestartPolicyOnFailure,
		},
	}
}

// arrivalsPod is t as the arrival's: its labels and InstantGate added.
func arrivalsPod(t *corev1.PodTemplateSpec) {
	t.Labels[WorkloadLabel], t.Labels[StreamLabel] = "train-7", "train"
	t.Spec.SchedulingGates = append(t.Spec.SchedulingGates, corev1.PodSchedulingGate{Name: InstantGate})
}

// arrivalsMeta is the metadata of a template object as the arrival's.
func arrivalsMeta(obj client.Object, full bool) {
	obj.SetName("train-7")
	obj.SetNamespace("research-ns")
	labels := maps.Clone(obj.GetLabels())
	labels[WorkloadLabel], labels[StreamLabel] = "train-7", "train"
	if full {
		labels[QueueNameLabel], labels[PriorityClassLabel] = "gpu", "high"
		obj.SetAnnotations(map[string]string{"team": "ml", infrav1.HardwareProfileNameAnnotation: "a100-profile"})
	}
	obj.SetLabels(labels)
}

var userMeta = metav1.ObjectMeta{Name: "mine", Namespace: "research-ns", Labels: map[string]string{"team": "ml"}, Annotations: map[string]string{"team": "ml"}}

func rayClusterTemplate(autoscaling bool) rayv1.RayClusterSpec {
	spec := rayv1.RayClusterSpec{
		HeadGroupSpec: rayv1.HeadGroupSpec{Template: userTemplate("ray-head", "1")},
		WorkerGroupSpecs: []rayv1.WorkerGroupSpec{
			{GroupName: "gpu", Replicas: ptr.To[int32](2), Template: userTemplate("ray-worker", "2")},
		},
	}
	for _, t := range []*corev1.PodTemplateSpec{&spec.HeadGroupSpec.Template, &spec.WorkerGroupSpecs[0].Template} {
		t.Spec.InitContainers, t.Spec.Overhead, t.Spec.RestartPolicy = nil, nil, ""
	}
	if autoscaling {
		spec.EnableInTreeAutoscaling = ptr.To(true)
	}
	return spec
}

func rayJobTemplate(mode rayv1.JobSubmissionMode) *rayv1.RayJob {
	spec := rayClusterTemplate(false)
	return &rayv1.RayJob{ObjectMeta: *userMeta.DeepCopy(), Spec: rayv1.RayJobSpec{
		Entrypoint: "python mine.py", SubmissionMode: mode, ShutdownAfterJobFinishes: true, RayClusterSpec: &spec,
	}}
}

func toUnstructured(t *testing.T, apiVersion, kind string, spec map[string]any) *unstructured.Unstructured {
	t.Helper()
	meta, err := runtime.DefaultUnstructuredConverter.ToUnstructured(userMeta.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	delete(meta, "creationTimestamp")
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta, "spec": spec}}
}

func podSpecMap(t *testing.T, pt corev1.PodTemplateSpec) map[string]any {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&pt.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTemplatedObjects: a templated stream's arrival submits its
// template's object as written but for its name and namespace, the
// arrival's labels (and the stream's queue and priority class, when it
// names them) and hardware-profile annotation beside the object's own, the
// arrival's labels and InstantGate on every pod template, and what ends it:
// suspended until Kueue admits it; a Job makes no pods after its running
// ones (completions clamped to parallelism) and, when the stream fails,
// retries none; a RayJob in K8sJobMode gets KubeRay's default submitter
// template to carry them. The template itself never changes.
func TestTemplatedObjects(t *testing.T) {
	priorities := map[string]int32{"high": 1000}
	type testCase struct {
		kind scenarios.WorkloadKind
		obj  client.Object
		fail bool
		// want makes the arrival's object of a copy of obj.
		want func(obj client.Object)
	}
	cases := map[string]testCase{
		"Job": {kind: scenarios.KindJob,
			obj: &batchv1.Job{ObjectMeta: *userMeta.DeepCopy(), Spec: batchv1.JobSpec{
				Parallelism: ptr.To[int32](2), Completions: ptr.To[int32](5), BackoffLimit: ptr.To[int32](6),
				Template: userTemplate("main", "1"),
			}},
			want: func(obj client.Object) {
				job := obj.(*batchv1.Job)
				arrivalsPod(&job.Spec.Template)
				job.Spec.Suspend, job.Spec.Completions = ptr.To(true), ptr.To[int32](2)
			}},
		"Job that fails": {kind: scenarios.KindJob, fail: true,
			obj: &batchv1.Job{ObjectMeta: *userMeta.DeepCopy(), Spec: batchv1.JobSpec{
				BackoffLimit: ptr.To[int32](6), Template: userTemplate("main", "1"),
			}},
			want: func(obj client.Object) {
				job := obj.(*batchv1.Job)
				arrivalsPod(&job.Spec.Template)
				job.Spec.Suspend, job.Spec.BackoffLimit = ptr.To(true), ptr.To[int32](0)
			}},
		"PyTorchJob": {kind: scenarios.KindPyTorchJob,
			obj: &kftraining.PyTorchJob{ObjectMeta: *userMeta.DeepCopy(), Spec: kftraining.PyTorchJobSpec{
				PyTorchReplicaSpecs: map[kftraining.ReplicaType]*kftraining.ReplicaSpec{
					kftraining.PyTorchJobReplicaTypeMaster: {Replicas: ptr.To[int32](1), Template: userTemplate("pytorch", "4"), RestartPolicy: kftraining.RestartPolicyOnFailure},
					kftraining.PyTorchJobReplicaTypeWorker: {Replicas: ptr.To[int32](3), Template: userTemplate("pytorch", "2")},
				},
			}},
			want: func(obj client.Object) {
				job := obj.(*kftraining.PyTorchJob)
				for _, s := range job.Spec.PyTorchReplicaSpecs {
					arrivalsPod(&s.Template)
				}
				job.Spec.RunPolicy.Suspend = ptr.To(true)
			}},
		"RayJob in K8sJobMode": {kind: scenarios.KindRayJob, obj: rayJobTemplate(""),
			want: func(obj client.Object) {
				job := obj.(*rayv1.RayJob)
				arrivalsPod(&job.Spec.RayClusterSpec.HeadGroupSpec.Template)
				arrivalsPod(&job.Spec.RayClusterSpec.WorkerGroupSpecs[0].Template)
				sub := fakes.DefaultSubmitterTemplate("trainer")
				sub.Labels = map[string]string{}
				arrivalsPod(&sub)
				job.Spec.Suspend, job.Spec.SubmitterPodTemplate = true, &sub
			}},
		"RayJob in SidecarMode": {kind: scenarios.KindRayJob, obj: rayJobTemplate(rayv1.SidecarMode),
			want: func(obj client.Object) {
				job := obj.(*rayv1.RayJob)
				arrivalsPod(&job.Spec.RayClusterSpec.HeadGroupSpec.Template)
				arrivalsPod(&job.Spec.RayClusterSpec.WorkerGroupSpecs[0].Template)
				job.Spec.Suspend = true
			}},
		"RayCluster with autoscaling": {kind: scenarios.KindRayCluster,
			obj: &rayv1.RayCluster{ObjectMeta: *userMeta.DeepCopy(), Spec: rayClusterTemplate(true)},
			want: func(obj client.Object) {
				rc := obj.(*rayv1.RayCluster)
				arrivalsPod(&rc.Spec.HeadGroupSpec.Template)
				arrivalsPod(&rc.Spec.WorkerGroupSpecs[0].Template)
				rc.Spec.Suspend = ptr.To(true)
			}},
		"Notebook": {kind: scenarios.KindNotebook,
			obj: toUnstructured(t, "kubeflow.org/v1", "Notebook", map[string]any{"template": map[string]any{"spec": podSpecMap(t, userTemplate("wb", "2"))}}),
			want: func(obj client.Object) {
				u := obj.(*unstructured.Unstructured)
				gates, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "schedulingGates")
				_ = unstructured.SetNestedSlice(u.Object, append(gates, map[string]any{"name": InstantGate}), "spec", "template", "spec", "schedulingGates")
			}},
		"InferenceService": {kind: scenarios.KindInferenceService,
			obj: toUnstructured(t, "serving.kserve.io/v1beta1", "InferenceService", map[string]any{"predictor": map[string]any{
				"minReplicas": int64(2),
				"model":       map[string]any{"modelFormat": map[string]any{"name": "sklearn"}, "resources": map[string]any{"requests": map[string]any{"cpu": "1"}}},
				"tolerations": []any{map[string]any{"key": "h100", "operator": "Exists"}},
			}}),
			want: func(obj client.Object) {
				u := obj.(*unstructured.Unstructured)
				_ = unstructured.SetNestedSlice(u.Object, []any{map[string]any{"name": InstantGate}}, "spec", "predictor", "schedulingGates")
			}},
		"Workload": {kind: scenarios.KindWorkload,
			obj: &kueue.Workload{ObjectMeta: *userMeta.DeepCopy(), Spec: kueue.WorkloadSpec{
				QueueName: "theirs",
				PodSets: []kueue.PodSet{
					{Name: "a", Count: 2, Template: userTemplate("main", "1")},
					{Name: "b", Count: 1, Template: userTemplate("main", "3")},
				},
			}},
			want: func(obj client.Object) {
				wl := obj.(*kueue.Workload)
				for i := range wl.Spec.PodSets {
					l := wl.Spec.PodSets[i].Template.Labels
					l[WorkloadLabel], l[StreamLabel] = "train-7", "train"
				}
				wl.Spec.QueueName = "gpu"
				wl.Spec.PriorityClassRef = kueue.NewWorkloadPriorityClassRef("high")
				wl.Spec.Priority = ptr.To[int32](1000)
			}},
	}
	for name, tc := range cases {
		for _, full := range []bool{true, false} {
			if tc.kind == scenarios.KindWorkload && !full {
				continue // the queue and priority are the stream's here
			}
			t.Run(name+map[bool]string{true: "/full", false: "/bare"}[full], func(t *testing.T) {
				a := templatedArrival(tc.kind, tc.obj, full)
				a.Stream.Fail = tc.fail
				before := tc.obj.DeepCopyObject()
				got, err := WorkloadObject(a, priorities)
				if err != nil {
					t.Fatal(err)
				}
				want := tc.obj.DeepCopyObject().(client.Object)
				arrivalsMeta(want, full)
				tc.want(want)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("arrival's object (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(before, tc.obj); diff != "" {
					t.Errorf("WorkloadObject changed the template (-before +after):\n%s", diff)
				}
			})
		}
	}
}

// TestTemplatedObjectErrors: a template of another kind than its stream's,
// or one not loaded, is an error naming the arrival.
func TestTemplatedObjectErrors(t *testing.T) {
	a := templatedArrival(scenarios.KindRayJob, &batchv1.Job{}, true)
	if _, err := WorkloadObject(a, nil); err == nil || !strings.Contains(err.Error(), "train-7") || !strings.Contains(err.Error(), "*v1.Job, not a ray.io/v1 RayJob") {
		t.Errorf("a Job template on a RayJob stream: error %v, want one naming the arrival and both kinds", err)
	}
	a = templatedArrival(scenarios.KindNotebook, toUnstructured(t, "serving.kserve.io/v1beta1", "InferenceService", map[string]any{}), true)
	if _, err := WorkloadObject(a, nil); err == nil || !strings.Contains(err.Error(), "not a Notebook") {
		t.Errorf("an InferenceService template on a Notebook stream: error %v, want one naming the kinds", err)
	}
	a.Stream.Template.Loaded = nil
	if _, err := WorkloadObject(a, nil); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("a template not loaded: error %v, want one saying so", err)
	}
	a = templatedArrival(scenarios.KindRayJob, &rayv1.RayJob{}, true)
	if _, err := WorkloadObject(a, nil); err == nil || !strings.Contains(err.Error(), "rayClusterSpec") {
		t.Errorf("a RayJob template without a cluster: error %v, want one naming spec.rayClusterSpec", err)
	}
}

// TestTemplatedPodsAndRequests: a templated stream's pods and total
// requests come from its object, as its operator runs it and as Kubernetes
// counts a pod: its containers or its init containers, whichever ask more,
// plus its overhead; each role its own; KubeRay's submitter a pod of its
// own in K8sJobMode and a container of the head in SidecarMode, its
// autoscaler sidecar on the head.
func TestTemplatedPodsAndRequests(t *testing.T) {
	const mi = 1 << 20
	withSidecar := userTemplate("main", "1")
	withSidecar.Spec.InitContainers = append(withSidecar.Spec.InitContainers, corev1.Container{
		Name: "proxy", Resources: cpu("500m"), RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways)})
	withSidecar.Spec.Overhead = nil
	ownSubmitter := rayJobTemplate(rayv1.K8sJobMode)
	ownSubmitter.Spec.SubmitterPodTemplate = &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "submit", Resources: cpu("2")}}}}
	sidecarAutoscaling := rayJobTemplate(rayv1.SidecarMode)
	sidecarAutoscaling.Spec.RayClusterSpec.EnableInTreeAutoscaling = ptr.To(true)
	for name, tc := range map[string]struct {
		kind scenarios.WorkloadKind
		obj  client.Object
		pods int
		want map[string]float64
	}{
		// 2 pods of max(1, init 3) + 250m overhead.
		"Job with an init container and overhead": {scenarios.KindJob,
			&batchv1.Job{Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](2), Completions: ptr.To[int32](5), Template: userTemplate("main", "1")}},
			2, map[string]float64{"cpu": 6.5}},
		// max(1 + sidecar 500m, init 3): the sidecar starts after the init container.
		"Job with a sidecar init container": {scenarios.KindJob,
			&batchv1.Job{Spec: batchv1.JobSpec{Template: withSidecar}},
			1, map[string]float64{"cpu": 3}},
		// master max(4, 3) + 250m; 3 workers of max(2, 3) + 250m.
		"PyTorchJob whose roles differ": {scenarios.KindPyTorchJob,
			&kftraining.PyTorchJob{Spec: kftraining.PyTorchJobSpec{PyTorchReplicaSpecs: map[kftraining.ReplicaType]*kftraining.ReplicaSpec{
				kftraining.PyTorchJobReplicaTypeMaster: {Replicas: ptr.To[int32](1), Template: userTemplate("pytorch", "4")},
				kftraining.PyTorchJobReplicaTypeWorker: {Replicas: ptr.To[int32](3), Template: userTemplate("pytorch", "2")},
			}}},
			4, map[string]float64{"cpu": 4.25 + 3*3.25}},
		// head 1, 2 workers of 2, the submitter's pod 500m and 200Mi.
		"RayJob in K8sJobMode": {scenarios.KindRayJob, rayJobTemplate(rayv1.K8sJobMode),
			4, map[string]float64{"cpu": 5.5, "memory": 200 * mi}},
		"RayJob, mode unset (K8sJobMode)": {scenarios.KindRayJob, rayJobTemplate(""),
			4, map[string]float64{"cpu": 5.5, "memory": 200 * mi}},
		"RayJob with its own submitter": {scenarios.KindRayJob, ownSubmitter,
			4, map[string]float64{"cpu": 7}},
		// the submitter in the head pod: one pod fewer, the same requests.
		"RayJob in SidecarMode": {scenarios.KindRayJob, rayJobTemplate(rayv1.SidecarMode),
			3, map[string]float64{"cpu": 5.5, "memory": 200 * mi}},
		"RayJob in HTTPMode": {scenarios.KindRayJob, rayJobTemplate(rayv1.HTTPMode),
			3, map[string]float64{"cpu": 5}},
		// and the autoscaler's 500m and 512Mi on the head.
		"RayJob in SidecarMode with autoscaling": {scenarios.KindRayJob, sidecarAutoscaling,
			3, map[string]float64{"cpu": 6, "memory": 712 * mi}},
		"RayCluster": {scenarios.KindRayCluster, &rayv1.RayCluster{Spec: rayClusterTemplate(false)},
			3, map[string]float64{"cpu": 5}},
		"RayCluster with autoscaling": {scenarios.KindRayCluster, &rayv1.RayCluster{Spec: rayClusterTemplate(true)},
			3, map[string]float64{"cpu": 5.5, "memory": 512 * mi}},
		"Notebook": {scenarios.KindNotebook,
			toUnstructured(t, "kubeflow.org/v1", "Notebook", map[string]any{"template": map[string]any{"spec": podSpecMap(t, userTemplate("wb", "2"))}}),
			1, map[string]float64{"cpu": 3.25}},
		"InferenceService": {scenarios.KindInferenceService,
			toUnstructured(t, "serving.kserve.io/v1beta1", "InferenceService", map[string]any{"predictor": map[string]any{
				"minReplicas": int64(2),
				"model":       map[string]any{"modelFormat": map[string]any{"name": "sklearn"}, "resources": map[string]any{"requests": map[string]any{"cpu": "1"}}},
			}}),
			2, map[string]float64{"cpu": 2}},
		"Workload": {scenarios.KindWorkload,
			&kueue.Workload{Spec: kueue.WorkloadSpec{PodSets: []kueue.PodSet{
				{Name: "a", Count: 2, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: cpu("1")}}}}},
				{Name: "b", Count: 1, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: cpu("3")}}}}},
			}}},
			3, map[string]float64{"cpu": 5}},
	} {
		t.Run(name, func(t *testing.T) {
			st := templatedArrival(tc.kind, tc.obj, true).Stream
			before := tc.obj.DeepCopyObject()
			if got := PodCount(st); got != tc.pods {
				t.Errorf("PodCount = %d, want %d", got, tc.pods)
			}
			if diff := cmp.Diff(tc.want, totalRequests(st)); diff != "" {
				t.Errorf("totalRequests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tc.obj); diff != "" {
				t.Errorf("PodCount or totalRequests changed the template (-before +after):\n%s", diff)
			}
		})
	}
}
