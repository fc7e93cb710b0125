//go:build integration

package crdtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	dashboardv1 "github.com/kueue-sim/kueue-sim/api/dashboard/v1"
	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
	"github.com/kueue-sim/kueue-sim/scheme"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

var (
	c        client.Client
	warnings = &warningRecorder{}
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	bins, err := assets.FindBinaries()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := scheme.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env := &envtest.Environment{
		Scheme:                s,
		BinaryAssetsDirectory: bins.Dir,
		CRDInstallOptions: envtest.CRDInstallOptions{
			Paths:              []string{"../../config/crd/bases", "../../config/crd/optional"},
			ErrorIfPathMissing: true,
		},
	}
	cfg, err := env.Start()
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting kube-apiserver and etcd: %v\n", err)
		return 1
	}
	defer func() { _ = env.Stop() }()
	cfg = rest.CopyConfig(cfg)
	cfg.WarningHandler = warnings
	if c, err = client.New(cfg, client.Options{Scheme: s}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

type warningRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warningRecorder) HandleWarningHeader(_ int, _ string, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, msg)
}

func (w *warningRecorder) all() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.msgs, "\n")
}

func TestHardwareProfileSchedulingRules(t *testing.T) {
	queue := &infrav1.KueueSchedulingSpec{LocalQueueName: "default", PriorityClass: "high"}
	node := &infrav1.NodeSchedulingSpec{NodeSelector: map[string]string{"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}}
	cases := []struct {
		name    string
		sched   *infrav1.SchedulingSpec
		wantErr string
	}{
		{"no scheduling", nil, ""},
		{"Queue with a LocalQueue", &infrav1.SchedulingSpec{Type: infrav1.QueueScheduling, Kueue: queue}, ""},
		{"Queue without kueue", &infrav1.SchedulingSpec{Type: infrav1.QueueScheduling},
			"scheduling.type Queue requires scheduling.kueue.localQueueName"},
		{"Queue with an empty LocalQueue name", &infrav1.SchedulingSpec{Type: infrav1.QueueScheduling, Kueue: &infrav1.KueueSchedulingSpec{}},
			"scheduling.type Queue requires scheduling.kueue.localQueueName"},
		{"Queue with node", &infrav1.SchedulingSpec{Type: infrav1.QueueScheduling, Kueue: queue, Node: node},
			"scheduling.type Queue must not set scheduling.node"},
		{"Node with node", &infrav1.SchedulingSpec{Type: infrav1.NodeScheduling, Node: node}, ""},
		{"Node without node", &infrav1.SchedulingSpec{Type: infrav1.NodeScheduling},
			"scheduling.type Node requires scheduling.node"},
		{"Node with kueue", &infrav1.SchedulingSpec{Type: infrav1.NodeScheduling, Node: node, Kueue: queue},
			"scheduling.type Node must not set scheduling.kueue"},
		{"unknown type", &infrav1.SchedulingSpec{Type: "Anywhere"}, "Unsupported value"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hwp := &infrav1.HardwareProfile{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("hwp-%d", i), Namespace: "default"},
				Spec: infrav1.HardwareProfileSpec{
					Identifiers: []infrav1.HardwareIdentifier{{
						Identifier: "nvidia.com/gpu", DisplayName: "GPU", ResourceType: infrav1.ResourceTypeAccelerator,
					}},
					Scheduling: tc.sched,
				},
			}
			err := c.Create(context.Background(), hwp)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("creating the profile: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("the profile was accepted, want refusal %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("refusal %q does not contain %q", err, tc.wantErr)
			}
		})
	}
}

func TestDataScienceClusterDefaultsAndStates(t *testing.T) {
	dsc := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: "defaults"}}
	if err := c.Create(context.Background(), dsc); err != nil {
		t.Fatal(err)
	}
	k := dsc.Spec.Components.Kueue
	if k.DefaultClusterQueueName != "default" || k.DefaultLocalQueueName != "default" || k.ManagementState != "" {
		t.Errorf("defaulted kueue component = %+v, want both queue names \"default\" and no state (Removed)", k)
	}

	bad := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: "bad-state"}}
	bad.Spec.Components.Kueue.ManagementState = "Enabled"
	if err := c.Create(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "Unsupported value") {
		t.Errorf("managementState Enabled: got %v, want an Unsupported value refusal", err)
	}
	badName := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: "bad-queue"}}
	badName.Spec.Components.Kueue.DefaultClusterQueueName = "Not_A_Name"
	if err := c.Create(context.Background(), badName); err == nil {
		t.Error("defaultClusterQueueName Not_A_Name was accepted")
	}
}

func TestKueueCRIsASingletonNamedCluster(t *testing.T) {
	spec := kueueoperatorv1.KueueSpec{Config: kueueoperatorv1.KueueConfiguration{Integrations: kueueoperatorv1.Integrations{
		Frameworks: []kueueoperatorv1.Framework{kueueoperatorv1.FrameworkPod},
	}}}
	other := &kueueoperatorv1.Kueue{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Spec: spec}
	if err := c.Create(context.Background(), other); err == nil || !strings.Contains(err.Error(), "singleton") {
		t.Errorf("a Kueue CR named other: got %v, want a refusal naming the singleton rule", err)
	}
	cluster := &kueueoperatorv1.Kueue{ObjectMeta: metav1.ObjectMeta{Name: kueueoperatorv1.InstanceName}, Spec: spec}
	if err := c.Create(context.Background(), cluster); err != nil {
		t.Fatalf("creating the Kueue CR cluster: %v", err)
	}
	if cluster.Spec.ManagementState != kueueoperatorv1.Managed {
		t.Errorf("managementState defaulted to %q, want Managed", cluster.Spec.ManagementState)
	}
}

func TestAcceleratorProfileUseWarnsItIsDeprecated(t *testing.T) {
	ap := &dashboardv1.AcceleratorProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "a100", Namespace: "default"},
		Spec: dashboardv1.AcceleratorProfileSpec{
			DisplayName: "A100", Enabled: true, Identifier: "nvidia.com/gpu",
			Tolerations: []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists}},
		},
	}
	if err := c.Create(context.Background(), ap); err != nil {
		t.Fatal(err)
	}
	if w := warnings.all(); !strings.Contains(w, "deprecated") || !strings.Contains(w, "HardwareProfile") {
		t.Errorf("warnings %q, want one saying AcceleratorProfile is deprecated for HardwareProfile", w)
	}
}
