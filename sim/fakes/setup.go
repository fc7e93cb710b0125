package fakes

import (
	"fmt"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
)

// Kind names one fake operator by the kind of the object it reconciles.
type Kind string

// The fake operators Setup can register.
const (
	Notebook         Kind = "Notebook"
	InferenceService Kind = "InferenceService"
	PyTorchJob       Kind = "PyTorchJob"
	RayJob           Kind = "RayJob"
	RayCluster       Kind = "RayCluster"
)

// AllKinds are the fake operators Setup registers by default.
var AllKinds = []Kind{Notebook, InferenceService, PyTorchJob, RayJob, RayCluster}

// crds names the CRD of each kind's resource, as config/crd holds it.
var crds = map[Kind]string{
	Notebook:         "notebooks.kubeflow.org",
	InferenceService: "inferenceservices.serving.kserve.io",
	PyTorchJob:       "pytorchjobs.kubeflow.org",
	RayJob:           "rayjobs.ray.io",
	RayCluster:       "rayclusters.ray.io",
}

// CRD is the name of the CRD that serves k's objects: a control plane
// without k's fake operator need not serve them (cluster.WithoutCRDs).
func (k Kind) CRD() string { return crds[k] }

type options struct {
	clock clock.PassiveClock
	kinds []Kind
}

// Option configures Setup.
type Option func(*options)

// WithClock sets the clock whose time goes into status timestamps; the
// default is the real clock.
func WithClock(c clock.PassiveClock) Option { return func(o *options) { o.clock = c } }

// WithKinds registers only these fake operators, e.g. when a real operator
// runs in their place.
func WithKinds(kinds ...Kind) Option { return func(o *options) { o.kinds = kinds } }

// Setup registers the fake operators with mgr.
func Setup(mgr ctrl.Manager, opts ...Option) error {
	o := options{clock: clock.RealClock{}, kinds: AllKinds}
	for _, opt := range opts {
		opt(&o)
	}
	for _, k := range o.kinds {
		var err error
		switch k {
		case Notebook:
			err = (&notebookReconciler{client: mgr.GetClient(), clock: o.clock}).setup(mgr)
		case InferenceService:
			err = (&isvcReconciler{client: mgr.GetClient(), clock: o.clock}).setup(mgr)
		case PyTorchJob:
			err = (&pyTorchJobReconciler{client: mgr.GetClient(), clock: o.clock}).setup(mgr)
		case RayJob:
			err = (&rayJobReconciler{client: mgr.GetClient(), clock: o.clock}).setup(mgr)
		case RayCluster:
			err = (&rayClusterReconciler{client: mgr.GetClient(), clock: o.clock}).setup(mgr)
		default:
			return fmt.Errorf("setting up fake operators: unknown kind %q (known: %v)", k, AllKinds)
		}
		if err != nil {
			return fmt.Errorf("setting up the fake %s operator: %w", k, err)
		}
	}
	return nil
}

// SetupFunc returns Setup with opts bound, in the shape cluster.WithSetup
// takes: cluster.WithSetup(fakes.SetupFunc()).
func SetupFunc(opts ...Option) func(ctrl.Manager) error {
	return func(mgr ctrl.Manager) error { return Setup(mgr, opts...) }
}
