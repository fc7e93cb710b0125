package fakes

import (
	"context"
	"fmt"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	rayutils "github.com/ray-project/kuberay/ray-operator/controllers/ray/utils"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// rayJobReconciler is the fake KubeRay operator for RayJobs. Where KubeRay
// makes a RayCluster and, in K8sJobMode, a submitter Job, the fake makes
// their pods directly, owned by the RayJob: the head and worker pods of
// spec.rayClusterSpec under the cluster name it reports in
// status.rayClusterName, and the submitter's pod once that cluster is ready.
// All carry ray.io/originated-from-cr-name and ray.io/originated-from-crd.
// The cluster is named <rayjob>-<five characters> as KubeRay names it, but
// the characters come from a hash of the RayJob's name, not from chance, so
// that runs repeat; the submitter's pod is <rayjob>-submitter.
//
// In SidecarMode KubeRay runs the submitter as a container of the head pod
// instead (RayJobClusterSpec), and the head pod carries it; a cluster with
// enableInTreeAutoscaling has the autoscaler sidecar on its head too
// (HeadPodTemplate).
//
// The Ray job's driver is the submitter pod in K8sJobMode and the head pod
// otherwise (HTTPMode, SidecarMode; InteractiveMode is treated like
// HTTPMode). When the driver ends the job is Complete with jobStatus
// SUCCEEDED, or Failed with FAILED; other pods ending change nothing (a Ray
// job outlives a lost worker; the fake does not replace it). The cluster's
// pods are then deleted at once (Kueue requires shutdownAfterJobFinishes;
// ttlSecondsAfterFinished is not waited for). A RayJob with a
// clusterSelector runs on a cluster it does not own and is left alone, as
// Kueue leaves it.
type rayJobReconciler struct {
	client client.Client
	clock  clock.PassiveClock
}

func (r *rayJobReconciler) setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("kueue-sim-fake-rayjob").
		For(&rayv1.RayJob{}).
		Owns(&corev1.Pod{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(r)
}

// Reconcile moves a RayJob one step through KubeRay's jobDeploymentStatus
// state machine.
func (r *rayJobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	job := &rayv1.RayJob{}
	if err := r.client.Get(ctx, req.NamespacedName, job); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if job.DeletionTimestamp != nil || len(job.Spec.ClusterSelector) > 0 || job.Spec.RayClusterSpec == nil {
		return ctrl.Result{}, nil
	}
	pods, err := ownedPods(ctx, r.client, job, rayJobSelector(job.Name))
	if err != nil {
		return ctrl.Result{}, err
	}
	now := metav1.NewTime(r.clock.Now())
	st := job.Status.DeepCopy()
	switch {
	case rayv1.IsJobDeploymentTerminal(st.JobDeploymentStatus):
		if _, err := deletePods(ctx, r.client, pods, active); err != nil {
			return ctrl.Result{}, err
		}
	case job.Spec.Suspend || st.JobDeploymentStatus == rayv1.JobDeploymentStatusSuspending:
		// Suspending is atomic in KubeRay: once begun, it ends in Suspended.
		left, err := deletePods(ctx, r.client, pods, all)
		if err != nil {
			return ctrl.Result{}, err
		}
		if left > 0 {
			st.JobDeploymentStatus = rayv1.JobDeploymentStatusSuspending
		} else {
			suspendedRayJobStatus(st)
		}
	default:
		if err := r.run(ctx, job, st, pods, now); err != nil {
			return ctrl.Result{}, err
		}
	}
	if apiequality.Semantic.DeepEqual(*st, job.Status) {
		return ctrl.Result{}, nil
	}
	if rayv1.IsJobDeploymentTerminal(st.JobDeploymentStatus) && !rayv1.IsJobDeploymentTerminal(job.Status.JobDeploymentStatus) {
		st.EndTime = &now
	}
	st.ObservedGeneration = job.Generation
	job.Status = *st
	if err := r.client.Status().Update(ctx, job); err != nil {
		if apierrors.IsConflict(err) {
			return ctrl.Result{}, nil // a newer version is on its way to Reconcile
		}
		return ctrl.Result{}, fmt.Errorf("updating status of RayJob %s/%s: %w", job.Namespace, job.Name, err)
	}
	return ctrl.Result{}, nil
}

// run starts or follows an unsuspended job, writing its status into st.
func (r *rayJobReconciler) run(ctx context.Context, job *rayv1.RayJob, st *rayv1.RayJobStatus, pods []corev1.Pod, now metav1.Time) error {
	switch st.JobDeploymentStatus {
	case rayv1.JobDeploymentStatusNew, rayv1.JobDeploymentStatusSuspended:
		st.JobDeploymentStatus = rayv1.JobDeploymentStatusInitializing
		st.RayClusterName = job.Name + "-" + stableSuffix(job.Namespace, job.Name, "cluster")
		st.JobId = job.Spec.JobId
		if st.JobId == "" {
			st.JobId = job.Name + "-" + stableSuffix(job.Namespace, job.Name, "job")
		}
		st.JobStatus = rayv1.JobStatusNew
		st.StartTime, st.EndTime = &now, nil
	}
	if terminating(pods) {
		return nil // the previous run's pods are still going
	}
	gvk := rayv1.SchemeGroupVersion.WithKind("RayJob")
	extra := rayJobSelector(job.Name)
	spec := RayJobClusterSpec(job)
	if err := createMissing(ctx, r.client, rayClusterPods(job, gvk, st.RayClusterName, spec, extra), pods); err != nil {
		return err
	}
	cluster := &rayv1.RayCluster{
		ObjectMeta: metav1.ObjectMeta{Name: st.RayClusterName, Namespace: job.Namespace, Generation: 1},
		Spec:       *spec,
		Status:     st.RayClusterStatus,
	}
	var clusterPods []corev1.Pod
	for _, p := range pods {
		if p.Labels[rayutils.RayClusterLabelKey] == st.RayClusterName {
			clusterPods = append(clusterPods, p)
		}
	}
	st.RayClusterStatus = rayClusterStatus(ctx, cluster, clusterPods, now)

	if st.JobDeploymentStatus == rayv1.JobDeploymentStatusInitializing && st.RayClusterStatus.State == rayv1.Ready {
		st.DashboardURL = fmt.Sprintf("%s.%s.svc.cluster.local:%d", rayHeadServiceName(st.RayClusterName), job.Namespace, rayutils.DefaultDashboardPort)
		if SubmitsWithJob(job) {
			if err := createMissing(ctx, r.client, []*corev1.Pod{submitterPod(job, gvk)}, pods); err != nil {
				return err
			}
		}
		st.JobDeploymentStatus = rayv1.JobDeploymentStatusRunning
	}
	if st.JobDeploymentStatus == rayv1.JobDeploymentStatusRunning {
		// In SidecarMode the driver is the head pod's submitter
		// container: the fake kubelet ends every container of a pod at
		// once, so the head pod's phase is the container's.
		driver := podByName(pods, rayutils.PodName(st.RayClusterName, rayv1.HeadNode, false))
		if SubmitsWithJob(job) {
			driver = podByName(pods, submitterPodName(job.Name))
		}
		rayJobProgress(st, job.Name, driver)
		if rayv1.IsJobDeploymentTerminal(st.JobDeploymentStatus) {
			if _, err := deletePods(ctx, r.client, pods, active); err != nil {
				return err
			}
		}
	}
	return nil
}

// rayJobProgress sets jobStatus (what the Ray dashboard would report) from
// the driver pod's phase, and ends the job when the driver ended.
func rayJobProgress(st *rayv1.RayJobStatus, job string, driver *corev1.Pod) {
	phase := corev1.PodPending
	if driver != nil {
		phase = driver.Status.Phase
	}
	switch phase {
	case corev1.PodRunning:
		st.JobStatus = rayv1.JobStatusRunning
	case corev1.PodSucceeded:
		st.JobStatus, st.JobDeploymentStatus = rayv1.JobStatusSucceeded, rayv1.JobDeploymentStatusComplete
		st.Message = fmt.Sprintf("Job %s finished successfully.", job)
		st.Succeeded = ptr.To(ptr.Deref(st.Succeeded, 0) + 1)
	case corev1.PodFailed:
		st.JobStatus, st.JobDeploymentStatus = rayv1.JobStatusFailed, rayv1.JobDeploymentStatusFailed
		st.Reason = rayv1.AppFailed
		st.Message = fmt.Sprintf("Job %s failed.", job)
		st.Failed = ptr.To(ptr.Deref(st.Failed, 0) + 1)
	default:
		st.JobStatus = rayv1.JobStatusPending
	}
}

// suspendedRayJobStatus resets what belongs to the deleted cluster and
// marks the job Suspended, as KubeRay does once a suspending job's resources
// are gone.
func suspendedRayJobStatus(st *rayv1.RayJobStatus) {
	st.RayClusterStatus = rayv1.RayClusterStatus{}
	st.RayClusterName, st.DashboardURL, st.JobId, st.Message, st.Reason = "", "", "", "", ""
	st.RayJobStatusInfo = rayv1.RayJobStatusInfo{}
	st.JobStatus = rayv1.JobStatusNew
	st.JobDeploymentStatus = rayv1.JobDeploymentStatusSuspended
}

// rayJobSelector labels every pod the fake makes for a RayJob, as KubeRay
// labels the RayCluster and submitter Job it makes for one.
func rayJobSelector(job string) map[string]string {
	return map[string]string{
		rayutils.RayOriginatedFromCRNameLabelKey: job,
		rayutils.RayOriginatedFromCRDLabelKey:    rayutils.RayOriginatedFromCRDLabelValue(rayutils.RayJobCRD),
	}
}

func submitterPodName(job string) string { return job + "-submitter" }

// submitterPod is the pod of the submitter Job KubeRay makes in K8sJobMode
// (SubmitterTemplate).
func submitterPod(job *rayv1.RayJob, gvk schema.GroupVersionKind) *corev1.Pod {
	tmpl := SubmitterTemplate(job)
	labels := rayJobSelector(job.Name)
	labels[rayutils.KubernetesCreatedByLabelKey] = rayutils.ComponentName
	return newPod(job, gvk, submitterPodName(job.Name), &tmpl, labels)
}

// SubmitsWithJob tells whether KubeRay submits the job's Ray job from a
// submitter Job of its own, a pod besides the cluster's: in K8sJobMode,
// the API's default (an object not read back from the API server may
// leave the mode unset).
func SubmitsWithJob(job *rayv1.RayJob) bool {
	return job.Spec.SubmissionMode == rayv1.K8sJobMode || job.Spec.SubmissionMode == ""
}

// SubmitterTemplate is the pod template of the submitter Job KubeRay makes
// in K8sJobMode (GetSubmitterTemplate): spec.submitterPodTemplate, or
// KubeRay's default, which Kueue also uses to account for it.
func SubmitterTemplate(job *rayv1.RayJob) corev1.PodTemplateSpec {
	if t := job.Spec.SubmitterPodTemplate; t != nil {
		return *t.DeepCopy()
	}
	return DefaultSubmitterTemplate(rayImage(job.Spec.RayClusterSpec))
}

// RayJobClusterSpec is the spec of the RayCluster KubeRay makes for a
// RayJob (constructRayClusterForRayJob): spec.rayClusterSpec, and in
// SidecarMode the submitter container after the head's containers, with
// the head's restart policy Never (KubeRay retries a SidecarMode job as a
// whole, never its submitter). job's own spec is left as it is.
func RayJobClusterSpec(job *rayv1.RayJob) *rayv1.RayClusterSpec {
	spec := job.Spec.RayClusterSpec
	if spec == nil || job.Spec.SubmissionMode != rayv1.SidecarMode {
		return spec
	}
	spec = spec.DeepCopy()
	head := &spec.HeadGroupSpec.Template.Spec
	head.Containers = append(head.Containers, SidecarSubmitterContainer(spec))
	head.RestartPolicy = corev1.RestartPolicyNever
	return spec
}

// SidecarSubmitterContainer is the submitter container KubeRay adds to the
// head pod of a RayJob in SidecarMode (getSubmitterContainer:
// GetDefaultSubmitterContainer): KubeRay's default submitter, of the head's
// image, asking 500m CPU and 200Mi. KubeRay refuses a
// spec.submitterPodTemplate in SidecarMode, so nothing overrides it. Kueue
// counts it from v0.18.3 and v0.19.0.
func SidecarSubmitterContainer(spec *rayv1.RayClusterSpec) corev1.Container {
	return DefaultSubmitterTemplate(rayImage(spec)).Spec.Containers[0]
}

// DefaultSubmitterTemplate is the submitter pod template KubeRay uses in
// K8sJobMode when a RayJob sets none (GetDefaultSubmitterTemplate): one
// container of the given image asking 500m CPU and 200Mi, limited to 1 CPU
// and 1Gi, never restarted. A client that must find the submitter's pod
// by its labels sets this template with its labels as
// spec.submitterPodTemplate (the default one carries none).
func DefaultSubmitterTemplate(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		RestartPolicy: corev1.RestartPolicyNever,
		Containers: []corev1.Container{{
			Name:  rayutils.SubmitterContainerName,
			Image: image,
			Resources: corev1.ResourceRequirements{
				Limits: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse("1"),
					corev1.ResourceMemory: resource.MustParse("1Gi"),
				},
				Requests: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse("500m"),
					corev1.ResourceMemory: resource.MustParse("200Mi"),
				},
			},
		}},
	}}
}
