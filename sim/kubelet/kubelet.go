package kubelet

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Kubelet runs the pods bound to nodes of the embedded control plane.
type Kubelet struct {
	client client.Client
	clock  clock.PassiveClock
}

var _ reconcile.Reconciler = (*Kubelet)(nil)

// Option configures a Kubelet.
type Option func(*Kubelet)

// WithClock sets the clock whose time goes into pod status (start and finish
// times). The default is the real clock.
func WithClock(c clock.PassiveClock) Option { return func(k *Kubelet) { k.clock = c } }

// New returns a Kubelet that writes pod status through c.
func New(c client.Client, opts ...Option) *Kubelet {
	k := &Kubelet{client: c, clock: clock.RealClock{}}
	for _, o := range opts {
		o(k)
	}
	return k
}

// SetupWithManager registers the kubelet as a controller on bound pods.
func (k *Kubelet) SetupWithManager(mgr ctrl.Manager) error {
	bound := predicate.NewPredicateFuncs(func(o client.Object) bool {
		p, ok := o.(*corev1.Pod)
		return ok && p.Spec.NodeName != ""
	})
	return ctrl.NewControllerManagedBy(mgr).
		Named("kueue-sim-fake-kubelet").
		For(&corev1.Pod{}, builder.WithPredicates(bound, predicate.Funcs{
			// A deleted pod needs nothing more from its kubelet.
			DeleteFunc: func(event.DeleteEvent) bool { return false },
		})).
		Complete(k)
}

// Reconcile starts a bound pod, or finishes deleting a terminating one.
func (k *Kubelet) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pod := &corev1.Pod{}
	if err := k.client.Get(ctx, req.NamespacedName, pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch {
	case pod.Spec.NodeName == "":
		return ctrl.Result{}, nil
	case pod.DeletionTimestamp != nil:
		return ctrl.Result{}, k.remove(ctx, pod)
	case pod.Status.Phase == "" || pod.Status.Phase == corev1.PodPending:
		return ctrl.Result{}, k.start(ctx, pod)
	}
	return ctrl.Result{}, nil
}

// remove deletes a terminating pod with grace period 0, as the kubelet does
// once the pod's containers have stopped.
func (k *Kubelet) remove(ctx context.Context, pod *corev1.Pod) error {
	err := k.client.Delete(ctx, pod, client.GracePeriodSeconds(0), client.Preconditions{UID: &pod.UID})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deleting terminating pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return nil
}

func (k *Kubelet) start(ctx context.Context, pod *corev1.Pod) error {
	now := metav1.NewTime(k.clock.Now())
	pod.Status.Phase = corev1.PodRunning
	pod.Status.StartTime = &now
	pod.Status.HostIP = "" // fake nodes have no address
	setConditions(pod, corev1.ConditionTrue, now)
	pod.Status.ContainerStatuses = containerStatuses(pod.Spec.Containers, func(corev1.Container) corev1.ContainerState {
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}
	}, true)
	if err := k.client.Status().Update(ctx, pod); err != nil {
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			return nil // a newer version is on its way to Reconcile
		}
		return fmt.Errorf("starting pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return nil
}

// ErrNotRunning is returned by Finish for a pod that is not running (any
// more): it ended, or is being deleted.
var ErrNotRunning = errors.New("the pod is not running")

// Finish ends a running pod: phase Succeeded (every container exited 0) or
// Failed (exit code 1), as the kubelet reports containers that ran to
// completion.
func (k *Kubelet) Finish(ctx context.Context, key types.NamespacedName, phase corev1.PodPhase) error {
	if phase != corev1.PodSucceeded && phase != corev1.PodFailed {
		return fmt.Errorf("finishing pod %s: phase must be Succeeded or Failed, not %q", key, phase)
	}
	pod := &corev1.Pod{}
	if err := k.client.Get(ctx, key, pod); err != nil {
		return fmt.Errorf("finishing pod %s: %w", key, err)
	}
	if pod.Status.Phase != corev1.PodRunning || pod.DeletionTimestamp != nil {
		return fmt.Errorf("finishing pod %s: it is %q: %w", key, pod.Status.Phase, ErrNotRunning)
	}
	now := metav1.NewTime(k.clock.Now())
	code, reason := int32(0), "Completed"
	if phase == corev1.PodFailed {
		code, reason = 1, "Error"
	}
	pod.Status.Phase = phase
	setConditions(pod, corev1.ConditionFalse, now)
	pod.Status.ContainerStatuses = containerStatuses(pod.Spec.Containers, func(c corev1.Container) corev1.ContainerState {
		started := now
		for _, cs := range pod.Status.ContainerStatuses {
			if cs.Name == c.Name && cs.State.Running != nil {
				started = cs.State.Running.StartedAt
			}
		}
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: code, Reason: reason, StartedAt: started, FinishedAt: now,
		}}
	}, false)
	if err := k.client.Status().Update(ctx, pod); err != nil {
		return fmt.Errorf("finishing pod %s: %w", key, err)
	}
	return nil
}

func containerStatuses(cs []corev1.Container, state func(corev1.Container) corev1.ContainerState, ready bool) []corev1.ContainerStatus {
	out := make([]corev1.ContainerStatus, 0, len(cs))
	for _, c := range cs {
		started := ready
		out = append(out, corev1.ContainerStatus{
			Name:    c.Name,
			Image:   c.Image,
			ImageID: "kueue-sim://" + c.Image,
			Ready:   ready,
			Started: &started,
			State:   state(c),
		})
	}
	return out
}

// setConditions sets the kubelet-owned pod conditions to status.
func setConditions(pod *corev1.Pod, status corev1.ConditionStatus, now metav1.Time) {
	for _, t := range []corev1.PodConditionType{
		corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady,
	} {
		s := status
		if t == corev1.PodInitialized {
			s = corev1.ConditionTrue // init containers (none) have completed
		}
		setCondition(pod, corev1.PodCondition{Type: t, Status: s, LastTransitionTime: now})
	}
}

func setCondition(pod *corev1.Pod, c corev1.PodCondition) {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == c.Type {
			if pod.Status.Conditions[i].Status != c.Status {
				pod.Status.Conditions[i] = c
			}
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, c)
}
