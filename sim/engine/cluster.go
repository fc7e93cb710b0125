package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	afs "sigs.k8s.io/kueue/pkg/util/admissionfairsharing"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
	"github.com/kueue-sim/kueue-sim/sim/platform"
)

// KueueConfig is the scenario's Kueue Configuration for the Kueue compiled
// in, as YAML, with the labels the engine follows workloads by added to
// integrations.labelKeysToCopy so that Kueue copies them onto Workloads.
func KueueConfig(s *scenarios.Scenario) ([]byte, error) {
	doc := map[string]any{}
	for k, v := range s.KueueSettings() {
		doc[k] = v
	}
	doc["apiVersion"] = "config.kueue.x-k8s.io/v1beta2"
	doc["kind"] = "Configuration"
	// A copy of integrations and its keys: the scenario's own stay as
	// loaded, however often its configuration is written.
	given, _ := doc["integrations"].(map[string]any)
	integ := maps.Clone(given)
	if integ == nil {
		integ = map[string]any{}
	}
	keys, _ := integ["labelKeysToCopy"].([]any)
	integ["labelKeysToCopy"] = append(slices.Clip(keys), WorkloadLabel, StreamLabel)
	doc["integrations"] = integ
	data, err := yaml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("writing the scenario's Kueue configuration: %w", err)
	}
	return data, nil
}

// KueueConfigName names the scenario's Kueue configuration in errors.
func KueueConfigName(s *scenarios.Scenario) string {
	if s.Cluster.KueueConfig != "" {
		return "scenario " + s.Name + " (cluster.kueueConfig " + s.Loaded.KueueConfigFile + ")"
	}
	return "scenario " + s.Name + " (cluster.kueue)"
}

// ClusterOptions are the control-plane options a scenario asks for: its
// node pools, its Kueue configuration, the platform (reconciler, webhooks,
// fake operators) and the virtual clock.
func ClusterOptions(s *scenarios.Scenario, clock *VirtualClock) ([]cluster.Option, error) {
	cfg, err := KueueConfig(s)
	if err != nil {
		return nil, err
	}
	opts := []cluster.Option{
		cluster.WithNodePools(s.Cluster.NodePools...),
		cluster.WithKueueConfig(KueueConfigName(s), cfg),
		cluster.WithClock(clock),
		cluster.WithWorkloadTransform(WorkloadTransform(clock)),
		// A run reads Workload conditions, never Events or v1beta1 objects:
		// both only load kube-apiserver (see the options).
		cluster.WithoutAPIEvents(),
		cluster.WithOnlyKueueStorageVersion(),
		// Two clients watch Workloads (the manager, and
		// kube-controller-manager's garbage collector for their
		// metadata): kube-apiserver's watch cache of them is history
		// nobody reads, most of its heap in a large run. Without it each
		// watch decodes every event from etcd: a 2k replay ran 15% faster
		// with the cache and peaked 35% higher (docs/performance.md,
		// "Memory"). Steps know when a watch event has reached the informers
		// (Target.Unseen), whichever way kube-apiserver serves it.
		cluster.WithoutWatchCache(cluster.WorkloadsResource),
		// Kueue's Workload webhook validates creates and spec updates
		// still; its calls for status writes (Kueue's own, and the
		// engine's) rejected none in the 15k baseline and held each of
		// Kueue's status patches up (cluster.WithoutStatusValidation).
		cluster.WithoutStatusValidation(),
	}
	if !runsPods(s) {
		// Raw Workloads only: kube-scheduler and kube-controller-manager
		// would have nothing to do but watch (docs/performance.md,
		// "Memory").
		opts = append(opts, cluster.WithoutPods())
	}
	return append(opts, platform.Options(platform.Settings{
		OperatorInstalled: *s.Cluster.OpenShiftAI.OperatorInstalled, Clock: clock,
		// Only the fake operators (and CRDs) the streams need: the
		// Ray and PyTorchJob CRDs' schemas alone were ~300 MiB of
		// kube-apiserver's memory (cluster.WithoutCRDs).
		Operators: operators(s),
	})...), nil
}

// EmbeddedTarget is the Target of an embedded control plane.
func EmbeddedTarget(cp *cluster.ControlPlane) Target {
	return withKueue(Target{
		Client:           cp.Client,
		Cache:            cp.Manager.GetCache(),
		Revision:         cp.Revision,
		DecisionRevision: cp.DecisionRevision,
		Unseen:           cp.Unseen,
		FinishPod: func(ctx context.Context, key client.ObjectKey, phase corev1.PodPhase) error {
			return cp.Kubelet.Finish(ctx, key, phase)
		},
	}, cp.Kueue)
}

// withKueue gives t what the in-process Kueue k offers the engine: its
// scheduler gate, its requeues, its quota reservations, weighted shares
// and pending-workload counts; nothing when Kueue does not run in process.
func withKueue(t Target, k *kueuesetup.Kueue) Target {
	if k != nil {
		t.Gate, t.Reserving, t.Shares, t.PendingCounts = k.Gate, k.Reserving, k.WeightedShare, k.PendingCounts
		if k.Requeues != nil {
			t.Requeues = k.Requeues
		}
		t.AdmissionFairSharing = k.Config != nil && afs.Enabled(k.Config.AdmissionFairSharing)
	}
	return t
}
