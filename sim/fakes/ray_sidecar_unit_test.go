package fakes

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/kueue-sim/kueue-sim/scheme"
)

// containerRequests are the names of a pod's containers with their CPU and
// memory requests.
func containerRequests(p *corev1.PodSpec) []string {
	var out []string
	for _, c := range p.Containers {
		out = append(out, c.Name+" "+c.Resources.Requests.Cpu().String()+" "+c.Resources.Requests.Memory().String())
	}
	return out
}

// TestAutoscalerSidecar: with enableInTreeAutoscaling the head pod carries
// KubeRay's autoscaler sidecar (500m CPU and 512Mi, or autoscalerOptions'
// resources); the workers do not, nor does a head without autoscaling.
func TestAutoscalerSidecar(t *testing.T) {
	gvk := rayv1.SchemeGroupVersion.WithKind("RayCluster")
	for name, tc := range map[string]struct {
		autoscaling *bool
		options     *rayv1.AutoscalerOptions
		want        []string
	}{
		"off":   {want: []string{"ray-head 0 0"}},
		"false": {autoscaling: ptr.To(false), want: []string{"ray-head 0 0"}},
		"on, KubeRay's defaults": {autoscaling: ptr.To(true),
			want: []string{"ray-head 0 0", "autoscaler 500m 512Mi"}},
		"on, autoscalerOptions' resources": {autoscaling: ptr.To(true),
			options: &rayv1.AutoscalerOptions{Resources: &corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi"),
			}}},
			want: []string{"ray-head 0 0", "autoscaler 1 1Gi"}},
	} {
		t.Run(name, func(t *testing.T) {
			rc := testRayCluster()
			rc.Spec.EnableInTreeAutoscaling, rc.Spec.AutoscalerOptions = tc.autoscaling, tc.options
			orig := rc.DeepCopy()
			pods := rayClusterPods(rc, gvk, rc.Name, &rc.Spec, nil)
			if diff := cmp.Diff(tc.want, containerRequests(&pods[0].Spec)); diff != "" {
				t.Errorf("head pod %s containers (-want +got):\n%s", pods[0].Name, diff)
			}
			if ptr.Deref(tc.autoscaling, false) && pods[0].Spec.Containers[1].Image != "ray" {
				t.Errorf("autoscaler image %q, want the head's", pods[0].Spec.Containers[1].Image)
			}
			for _, p := range pods[1:] {
				if len(p.Spec.Containers) != 0 {
					t.Errorf("worker pod %s has containers %v, want the template's (none)", p.Name, containerRequests(&p.Spec))
				}
			}
			if diff := cmp.Diff(orig, rc); diff != "" {
				t.Errorf("rayClusterPods changed the RayCluster (-before +after):\n%s", diff)
			}
		})
	}
}

func testRayJob(mode rayv1.JobSubmissionMode) *rayv1.RayJob {
	rc := testRayCluster()
	rc.Spec.HeadGroupSpec.Template.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
	rc.Spec.HeadGroupSpec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
	return &rayv1.RayJob{
		ObjectMeta: metav1.ObjectMeta{Name: "job", Namespace: "ns", UID: "job-uid"},
		Spec:       rayv1.RayJobSpec{SubmissionMode: mode, RayClusterSpec: &rc.Spec, ShutdownAfterJobFinishes: true},
	}
}

// TestRayJobClusterSpec: in SidecarMode KubeRay's cluster for a RayJob has
// the default submitter container after the head's, and a head restart
// policy of Never; in the other modes it is the RayJob's as written. The
// RayJob itself never changes.
func TestRayJobClusterSpec(t *testing.T) {
	for _, mode := range []rayv1.JobSubmissionMode{"", rayv1.K8sJobMode, rayv1.HTTPMode, rayv1.SidecarMode} {
		job := testRayJob(mode)
		orig := job.DeepCopy()
		spec := RayJobClusterSpec(job)
		head := HeadPodTemplate(spec)
		want, policy := []string{"ray-head 1 0"}, corev1.RestartPolicyAlways
		if mode == rayv1.SidecarMode {
			want, policy = []string{"ray-head 1 0", "ray-job-submitter 500m 200Mi"}, corev1.RestartPolicyNever
		}
		if diff := cmp.Diff(want, containerRequests(&head.Spec)); diff != "" {
			t.Errorf("%q: head containers (-want +got):\n%s", mode, diff)
		}
		if head.Spec.RestartPolicy != policy {
			t.Errorf("%q: head restart policy %q, want %q", mode, head.Spec.RestartPolicy, policy)
		}
		if diff := cmp.Diff(orig, job); diff != "" {
			t.Errorf("%q: RayJobClusterSpec changed the RayJob (-before +after):\n%s", mode, diff)
		}
		if got, want := SubmitsWithJob(job), mode == "" || mode == rayv1.K8sJobMode; got != want {
			t.Errorf("%q: SubmitsWithJob = %v, want %v", mode, got, want)
		}
	}
	// SidecarMode with autoscaling: the submitter, then the autoscaler.
	job := testRayJob(rayv1.SidecarMode)
	job.Spec.RayClusterSpec.EnableInTreeAutoscaling = ptr.To(true)
	head := HeadPodTemplate(RayJobClusterSpec(job))
	if diff := cmp.Diff([]string{"ray-head 1 0", "ray-job-submitter 500m 200Mi", "autoscaler 500m 512Mi"}, containerRequests(&head.Spec)); diff != "" {
		t.Errorf("SidecarMode with autoscaling: head containers (-want +got):\n%s", diff)
	}
}

// TestSubmitterTemplate: the RayJob's own submitter template, or KubeRay's
// default of the head's image.
func TestSubmitterTemplate(t *testing.T) {
	job := testRayJob(rayv1.K8sJobMode)
	def := SubmitterTemplate(job)
	if diff := cmp.Diff([]string{"ray-job-submitter 500m 200Mi"}, containerRequests(&def.Spec)); diff != "" || def.Spec.Containers[0].Image != "ray" {
		t.Errorf("default submitter %+v: want KubeRay's default of image ray (-want +got):\n%s", def.Spec.Containers, diff)
	}
	own := corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "submit",
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}}}}}
	job.Spec.SubmitterPodTemplate = &own
	got := SubmitterTemplate(job)
	if diff := cmp.Diff(own, got); diff != "" {
		t.Errorf("own submitter template (-want +got):\n%s", diff)
	}
	got.Labels = map[string]string{"x": "y"}
	if job.Spec.SubmitterPodTemplate.Labels != nil {
		t.Error("SubmitterTemplate returned the RayJob's own template, not a copy")
	}
}

// TestRayJobSidecarModeRun: a RayJob in SidecarMode runs its submitter in
// the head pod and makes no submitter pod; it completes when the head pod
// (its driver) succeeds, and its pods go. In K8sJobMode the submitter's
// pod comes once the cluster is ready.
func TestRayJobSidecarModeRun(t *testing.T) {
	for _, mode := range []rayv1.JobSubmissionMode{rayv1.SidecarMode, rayv1.K8sJobMode} {
		t.Run(string(mode), func(t *testing.T) {
			ctx := context.Background()
			s, err := scheme.New()
			if err != nil {
				t.Fatal(err)
			}
			job := testRayJob(mode)
			job.Spec.RayClusterSpec.WorkerGroupSpecs = job.Spec.RayClusterSpec.WorkerGroupSpecs[:1]
			c := fake.NewClientBuilder().WithScheme(s).WithObjects(job).WithStatusSubresource(&rayv1.RayJob{}, &corev1.Pod{}).Build()
			r := &rayJobReconciler{client: c, clock: clocktesting.NewFakePassiveClock(t0.Time)}
			reconcile := func() {
				t.Helper()
				if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "job"}}); err != nil {
					t.Fatal(err)
				}
			}
			pods := func() map[string]*corev1.Pod {
				t.Helper()
				var list corev1.PodList
				if err := c.List(ctx, &list, client.InNamespace("ns")); err != nil {
					t.Fatal(err)
				}
				out := map[string]*corev1.Pod{}
				for i := range list.Items {
					p := &list.Items[i]
					out[p.Labels["ray.io/node-type"]+"/"+p.Name] = p
				}
				return out
			}
			setPhase := func(p *corev1.Pod, phase corev1.PodPhase) {
				t.Helper()
				p.Status.Phase = phase
				p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
				if err := c.Status().Update(ctx, p); err != nil {
					t.Fatal(err)
				}
			}

			reconcile()
			first := pods()
			if len(first) != 3 {
				t.Fatalf("pods %v: want the head and two workers", keys(first))
			}
			var head *corev1.Pod
			for k, p := range first {
				if p.Labels["ray.io/node-type"] == "head" {
					head = p
				}
				setPhase(first[k], corev1.PodRunning)
			}
			want := []string{"ray-head 1 0"}
			if mode == rayv1.SidecarMode {
				want = append(want, "ray-job-submitter 500m 200Mi")
			}
			if diff := cmp.Diff(want, containerRequests(&head.Spec)); diff != "" {
				t.Errorf("head pod containers (-want +got):\n%s", diff)
			}

			reconcile() // the cluster is ready: the job runs
			running := pods()
			wantPods := 3
			if mode == rayv1.K8sJobMode {
				wantPods = 4 // and the submitter's pod
			}
			if len(running) != wantPods {
				t.Fatalf("pods once the cluster is ready %v: want %d", keys(running), wantPods)
			}
			for _, p := range running {
				if p.Status.Phase == "" {
					setPhase(p, corev1.PodRunning)
				}
			}
			reconcile()
			if err := c.Get(ctx, client.ObjectKeyFromObject(job), job); err != nil {
				t.Fatal(err)
			}
			if job.Status.JobDeploymentStatus != rayv1.JobDeploymentStatusRunning || job.Status.JobStatus != rayv1.JobStatusRunning {
				t.Fatalf("RayJob %q/%q while its driver runs, want Running/RUNNING", job.Status.JobDeploymentStatus, job.Status.JobStatus)
			}

			driver := head
			if mode == rayv1.K8sJobMode {
				driver = running["/"+submitterPodName(job.Name)]
			}
			if err := c.Get(ctx, client.ObjectKeyFromObject(driver), driver); err != nil {
				t.Fatal(err)
			}
			setPhase(driver, corev1.PodSucceeded)
			reconcile()
			if err := c.Get(ctx, client.ObjectKeyFromObject(job), job); err != nil {
				t.Fatal(err)
			}
			if job.Status.JobDeploymentStatus != rayv1.JobDeploymentStatusComplete || job.Status.JobStatus != rayv1.JobStatusSucceeded {
				t.Errorf("RayJob %q/%q once its driver succeeded, want Complete/SUCCEEDED", job.Status.JobDeploymentStatus, job.Status.JobStatus)
			}
		})
	}
}

func keys(m map[string]*corev1.Pod) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
