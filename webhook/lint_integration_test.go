//go:build integration

package webhook_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/lint"
	"github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// The webhooks judge an object once, when it is admitted; lint judges what
// is there now, through the same rules, reading the cluster with a
// kubeconfig as `sim lint --kubeconfig` does.
func TestLintFindsWhatChangedSinceAdmission(t *testing.T) {
	ctx := context.Background()
	kueueState(t, dscv1.Unmanaged)
	ns := clustertest.Namespace(t, cp.Client, managedLabels)
	cqName := queues(t, ns, "team", "", nonPreemptive)
	_, err := create(webhook.Notebook, ns, "nb", queue("team"), nil)
	admitted(t, err)

	// An admin makes the ClusterQueue preemptive, and adds a Node profile.
	cq := withName(&kueue.ClusterQueue{}, cqName)
	get(t, cq)
	patch := client.MergeFrom(cq.DeepCopy())
	cq.Spec.Preemption.WithinClusterQueue = kueue.PreemptionPolicyLowerPriority
	admitted(t, cp.Client.Patch(ctx, cq, patch))
	clustertest.Create(t, cp.Client, nodeProfile(ns, "a100-nodes"))

	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := cp.WriteKubeConfig(kubeconfig); err != nil {
		t.Fatal(err)
	}
	c, err := lint.Connect(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := lint.FromCluster(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	findings, err := lint.Run(ctx, objs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range findings {
		// Other tests' objects share the cluster.
		if strings.Contains(f.Object, " "+ns+"/") {
			got = append(got, f.Object+" "+f.Rule)
		}
	}
	want := []string{
		"HardwareProfile " + ns + "/a100-nodes " + webhook.RuleNodeProfile,
		"Notebook " + ns + "/nb " + webhook.RuleNotebookQueue,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings in %s:\n%s\nwant:\n%s", ns, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
