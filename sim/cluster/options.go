package cluster

import (
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// SetupFunc adds controllers or webhooks to the control plane's manager
// before it starts.
type SetupFunc func(mgr ctrl.Manager) error

type options struct {
	binaries        *assets.Binaries
	runRoot         string
	kueueConfigFile string
	kueueConfigName string
	kueueConfigData []byte
	pools           []nodes.Pool
	setups          []SetupFunc
	crds            []*apiextensionsv1.CustomResourceDefinition
	noCRDs          []string
	mutating        []*admissionv1.MutatingWebhookConfiguration
	validating      []*admissionv1.ValidatingWebhookConfiguration
	clock           clock.Clock
	noKueueOperator bool
	// kueueStorageOnly and noAPIEvents: see WithOnlyKueueStorageVersion
	// and WithoutAPIEvents.
	kueueStorageOnly bool
	noAPIEvents      bool
	// noWatchCache: see WithoutWatchCache.
	noWatchCache []string
	// noStatusValidation: see WithoutStatusValidation.
	noStatusValidation bool
	// workloadTransform: see WithWorkloadTransform.
	workloadTransform toolscache.TransformFunc
	// noPods: see WithoutPods.
	noPods bool
	// slowKueue: see WithSlowKueue.
	slowKueue time.Duration
	ext       externalOptions
}

// Option configures Start.
type Option func(*options)

// WithSlowKueue slows each reconcile of Kueue's Workload and LocalQueue
// reconcilers and of its job integrations' reconcilers by d of wall time,
// in a replay on the virtual clock (kueuesetup.WithSlowReconcilers): a
// check that the replay's decisions do not depend on how fast the machine
// runs Kueue.
func WithSlowKueue(d time.Duration) Option { return func(o *options) { o.slowKueue = d } }

// WithBinaries uses the control-plane binaries in b instead of looking them
// up with assets.FindBinaries.
func WithBinaries(b assets.Binaries) Option { return func(o *options) { o.binaries = &b } }

// WithRunRoot sets the folder under which the run folder (etcd data,
// certificates, kubeconfigs, logs) is made; default procs.DefaultRunRoot().
func WithRunRoot(dir string) Option { return func(o *options) { o.runRoot = dir } }

// WithKueueConfigFile configures Kueue from a Configuration file (fair
// sharing, preemption, waitForPodsReady, integrations, namespace selector).
func WithKueueConfigFile(path string) Option { return func(o *options) { o.kueueConfigFile = path } }

// WithKueueConfig configures Kueue from a Configuration held in memory;
// name names it in errors.
func WithKueueConfig(name string, data []byte) Option {
	return func(o *options) { o.kueueConfigName, o.kueueConfigData = name, data }
}

// WithNodePools creates these Ready nodes once the control plane is up.
func WithNodePools(pools ...nodes.Pool) Option {
	return func(o *options) { o.pools = append(o.pools, pools...) }
}

// WithSetup adds controllers or webhooks to the manager before it starts.
func WithSetup(f SetupFunc) Option { return func(o *options) { o.setups = append(o.setups, f) } }

// WithCRDs installs these CRDs beside the embedded ones.
func WithCRDs(crds ...*apiextensionsv1.CustomResourceDefinition) Option {
	return func(o *options) { o.crds = append(o.crds, crds...) }
}

// WithoutKueueOperator leaves out the CRD of the Red Hat build of Kueue
// operator (kueue.openshift.io Kueue), which Start installs by default: to
// OpenShift AI, the operator is then not installed.
func WithoutKueueOperator() Option { return func(o *options) { o.noKueueOperator = true } }

// WithWebhooks registers webhook configurations served by the manager's
// webhook server, beside Kueue's. Their client configs are rewritten to
// point at the local server.
func WithWebhooks(m []*admissionv1.MutatingWebhookConfiguration, v []*admissionv1.ValidatingWebhookConfiguration) Option {
	return func(o *options) {
		o.mutating = append(o.mutating, m...)
		o.validating = append(o.validating, v...)
	}
}

// WithClock is the clock whose time the fake kubelet writes into pod status
// and Kueue's scheduler into admissions and preemptions.
func WithClock(c clock.Clock) Option { return func(o *options) { o.clock = c } }

// WithOnlyKueueStorageVersion serves Kueue's CRDs in their storage version
// (v1beta2) only. kube-apiserver keeps a watch cache per served version of a
// CRD and decodes every write into each of them, so serving the deprecated
// v1beta1 as well costs one call to the conversion webhook per write to a
// Workload, LocalQueue or ClusterQueue, whoever reads it. For runs, whose
// clients all use v1beta2; `sim up` keeps v1beta1 for users' manifests.
func WithOnlyKueueStorageVersion() Option { return func(o *options) { o.kueueStorageOnly = true } }

// WithoutAPIEvents keeps the Events that Kueue and kueue-sim's controllers
// record in process (logged at verbosity 1) instead of writing them to the
// API server: they are a third of a run's writes and nothing a run reports
// reads them (the engine reads Workload conditions and pod status). Those
// of kube-scheduler and kube-controller-manager stay in their processes
// too (logged at the components' own verbosity): kueue-sim's builds of
// them answer their recorders' writes themselves when their kubeconfig
// says so (sim/tools/pins/k8sbin/noapievents). For runs; `sim up` keeps
// them all for kubectl describe.
func WithoutAPIEvents() Option { return func(o *options) { o.noAPIEvents = true } }

// WorkloadsResource is Kueue's Workload resource, as kube-apiserver's
// --watch-cache-sizes names it.
const WorkloadsResource = "workloads.kueue.x-k8s.io"

// WithoutCRDs leaves these embedded CRDs ("rayjobs.ray.io") out of the
// control plane: a run whose workloads never make RayJobs, RayClusters or
// PyTorchJobs need not serve them, and their schemas (2.9 MB of YAML of
// the 4.5 MB embedded) were about 300 MiB of kube-apiserver's memory
// (docs/performance.md, "Memory"). Kueue sets up a job integration whose
// CRD is missing once the CRD appears; no controller in the control
// plane may watch the kinds left out (fakes.WithKinds). Starting fails on
// a name no embedded CRD has.
func WithoutCRDs(names ...string) Option {
	return func(o *options) { o.noCRDs = append(o.noCRDs, names...) }
}

// WithoutWatchCache turns kube-apiserver's watch cache off for these
// resources ("workloads.kueue.x-k8s.io"): their lists and watches are
// served from etcd. The watch cache keeps at least 75 s of every write's
// object and its previous version, decoded; a replay writes Workloads
// hundreds of times a wall second, and that history was most of
// kube-apiserver's heap (docs/performance.md, "Memory").
func WithoutWatchCache(resources ...string) Option {
	return func(o *options) { o.noWatchCache = append(o.noWatchCache, resources...) }
}

// WithoutStatusValidation registers Kueue's validating webhooks without
// their status subresources: kube-apiserver no longer calls the Workload
// webhook for writes to workloads/status, which are Kueue's own (Pending
// messages, admissions, evictions) and kueue-sim's (a raw Workload's end);
// it still validates every Workload create and spec update. Each call
// sends the old and new Workload to the manager's webhook server and back,
// and a write of Kueue's scheduler waits for it: in the 15k baseline,
// 48,636 calls that kube-apiserver waited 6,507 s for in all, none
// rejected (docs/performance.md, "Kueue's webhooks"). For runs; `sim up` keeps them.
func WithoutStatusValidation() Option { return func(o *options) { o.noStatusValidation = true } }

// WithoutPods starts neither kube-scheduler nor kube-controller-manager,
// for a run in which nothing makes pods or objects that others own (raw
// Workloads only): they would have nothing to schedule, run or collect,
// yet kube-controller-manager's garbage collector would still watch every
// resource, Workloads included. Kueue's own scheduler-performance harness
// runs without either.
func WithoutPods() Option { return func(o *options) { o.noPods = true } }

// WithWorkloadTransform rewrites every Kueue Workload before the manager's
// informer cache stores it and hands it to Kueue and the other in-process
// controllers (after Kueue's own transform, which drops managed fields).
// The engine uses it to show Kueue simulated creation times.
func WithWorkloadTransform(f toolscache.TransformFunc) Option {
	return func(o *options) { o.workloadTransform = f }
}
