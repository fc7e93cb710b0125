package fakes

import (
	"context"
	"fmt"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// KServe's labels and names for a predictor in raw deployment mode.
const (
	isvcLabel           = "serving.kserve.io/inferenceservice"
	componentLabel      = "component"
	predictorComponent  = "predictor"
	kserveContainerName = "kserve-container"
	rawDeploymentMode   = "RawDeployment"
)

// isvcReconciler is the fake KServe controller in raw deployment mode: for
// each InferenceService a Deployment <name>-predictor, and the conditions
// PredictorReady (from the Deployment's Available and Progressing
// conditions), IngressReady and Ready, with the url once the predictor is
// ready. It makes no Service, ingress, HPA or ServingRuntime lookup: a
// predictor given as spec.predictor.model runs the model's image, or a
// placeholder named after its model format.
type isvcReconciler struct {
	client client.Client
	clock  clock.PassiveClock
}

func (r *isvcReconciler) setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("kueue-sim-fake-inferenceservice").
		For(newUnstructured(isvcGVK)).
		Owns(&appsv1.Deployment{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(r)
}

// predictorSpec is the part of KServe's PredictorSpec the fake reads: the
// pod-spec fields inline, the replica bounds, and the model.
type predictorSpec struct {
	corev1.PodSpec `json:",inline"`
	MinReplicas    *int32     `json:"minReplicas,omitempty"`
	Model          *modelSpec `json:"model,omitempty"`
}

// modelSpec is KServe's ModelSpec: a model format and runtime, and the
// container fields inline.
type modelSpec struct {
	corev1.Container `json:",inline"`
	ModelFormat      struct {
		Name string `json:"name"`
	} `json:"modelFormat"`
	Runtime *string `json:"runtime,omitempty"`
}

// Reconcile makes an InferenceService's predictor Deployment and reports the
// InferenceService's status.
func (r *isvcReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	isvc := newUnstructured(isvcGVK)
	if err := r.client.Get(ctx, req.NamespacedName, isvc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if isvc.GetDeletionTimestamp() != nil {
		return ctrl.Result{}, nil
	}
	want, err := predictorDeployment(isvc)
	if err != nil {
		return ctrl.Result{}, err
	}
	dep := &appsv1.Deployment{}
	err = r.client.Get(ctx, client.ObjectKeyFromObject(want), dep)
	switch {
	case apierrors.IsNotFound(err):
		if err := r.client.Create(ctx, want); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, fmt.Errorf("creating the predictor of InferenceService %s/%s: %w", isvc.GetNamespace(), isvc.GetName(), err)
		}
		dep = want
	case err != nil:
		return ctrl.Result{}, fmt.Errorf("reading the predictor of InferenceService %s/%s: %w", isvc.GetNamespace(), isvc.GetName(), err)
	case !metav1.IsControlledBy(dep, isvc):
		return ctrl.Result{}, fmt.Errorf("deployment %s/%s exists and does not belong to InferenceService %s", dep.Namespace, dep.Name, isvc.GetName())
	case ptr.Deref(dep.Spec.Replicas, 1) != ptr.Deref(want.Spec.Replicas, 1):
		dep.Spec.Replicas = want.Spec.Replicas
		if err := r.client.Update(ctx, dep); err != nil {
			return ctrl.Result{}, fmt.Errorf("scaling the predictor of InferenceService %s/%s: %w", isvc.GetNamespace(), isvc.GetName(), err)
		}
	}
	return ctrl.Result{}, r.updateStatus(ctx, isvc, dep)
}

// predictorName is KServe's PredictorServiceName.
func predictorName(isvc string) string { return isvc + "-predictor" }

// predictorDeployment is the Deployment KServe makes for an
// InferenceService's predictor in raw mode: the InferenceService's labels
// (so Kueue's queue-name and priority-class) and annotations plus KServe's
// own on it and its pods; replicas = minReplicas, at least one (raw mode
// does not scale to zero).
func predictorDeployment(isvc *unstructured.Unstructured) (*appsv1.Deployment, error) {
	var pred predictorSpec
	if err := decodeField(isvc, &pred, "spec", "predictor"); err != nil {
		return nil, err
	}
	spec := pred.PodSpec
	if pred.Model != nil {
		c := pred.Model.Container
		c.Name = kserveContainerName
		if c.Image == "" {
			runtime := ptr.Deref(pred.Model.Runtime, pred.Model.ModelFormat.Name)
			c.Image = fmt.Sprintf("kueue-sim.invalid/kserve-runtime/%s", runtime)
		}
		spec.Containers = append([]corev1.Container{c}, spec.Containers...)
	} else if len(spec.Containers) > 0 && spec.Containers[0].Name == "" {
		spec.Containers[0].Name = kserveContainerName
	}
	replicas := max(ptr.Deref(pred.MinReplicas, 1), 1)
	name := predictorName(isvc.GetName())
	app := "isvc." + name
	labels := maps.Clone(isvc.GetLabels())
	if labels == nil {
		labels = map[string]string{}
	}
	maps.Copy(labels, map[string]string{isvcLabel: isvc.GetName(), componentLabel: predictorComponent, "app": app})
	annots := map[string]string{}
	for k, v := range isvc.GetAnnotations() {
		if k != corev1.LastAppliedConfigAnnotation {
			annots[k] = v
		}
	}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name:            name,
			Namespace:       isvc.GetNamespace(),
			Labels:          labels,
			Annotations:     annots,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(isvc, isvcGVK)},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(labels), Annotations: maps.Clone(annots)},
				Spec:       spec,
			},
		},
	}, nil
}

func (r *isvcReconciler) updateStatus(ctx context.Context, isvc *unstructured.Unstructured, dep *appsv1.Deployment) error {
	var old isvcStatus
	if err := decodeField(isvc, &old, "status"); err != nil {
		return err
	}
	st := isvcStatusOf(isvc.GetName(), isvc.GetNamespace(), isvc.GetGeneration(), dep, old, metav1.NewTime(r.clock.Now()))
	if apiequality.Semantic.DeepEqual(old, st) {
		return nil
	}
	v, err := toUnstructuredValue(st)
	if err != nil {
		return fmt.Errorf("writing status of InferenceService %s/%s: %w", isvc.GetNamespace(), isvc.GetName(), err)
	}
	isvc.Object["status"] = v
	if err := r.client.Status().Update(ctx, isvc); err != nil {
		if apierrors.IsConflict(err) {
			return nil // a newer version is on its way to Reconcile
		}
		return fmt.Errorf("updating status of InferenceService %s/%s: %w", isvc.GetNamespace(), isvc.GetName(), err)
	}
	return nil
}
