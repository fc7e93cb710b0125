//go:build integration

// Package connecttest checks cluster.Connect against a bare kube-apiserver
// (envtest, no Kueue, no kueue-sim parts): what it installs, registers and
// removes, and what it refuses to take over. Kueue stays out (one per
// process; the e2e suites run it through Connect on KWOK clusters).
package connecttest

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	testingpytorch "sigs.k8s.io/kueue/pkg/util/testingjobs/pytorchjob"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/scheme"
	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/webhook"
)

var cfg *rest.Config

func TestMain(m *testing.M) {
	b, err := assets.FindBinaries()
	if err != nil {
		panic(err)
	}
	env := &envtest.Environment{BinaryAssetsDirectory: b.Dir}
	if cfg, err = env.Start(); err != nil {
		panic(err)
	}
	code := m.Run()
	if err := env.Stop(); err != nil && code == 0 {
		code = 1
	}
	os.Exit(code)
}

func TestConnectInstallsServesAndRemovesItsWebhooks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		t.Fatal(err)
	}
	// A CRD someone else installed: Connect must leave it as it is.
	theirs := crd(t, "hardwareprofiles.infrastructure.opendatahub.io")
	if err := c.Create(ctx, theirs); err != nil {
		t.Fatal(err)
	}

	muts, vals := webhook.Configurations()
	cp, err := cluster.Connect(ctx, cfg, cluster.WithoutKueue(),
		cluster.WithSetup(webhook.Setup), cluster.WithWebhooks(muts, vals))
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = cp.Stop()
		}
	}()

	var got apiextensionsv1.CustomResourceDefinition
	if err := c.Get(ctx, client.ObjectKey{Name: "notebooks.kubeflow.org"}, &got); err != nil || got.Labels[cluster.ManagedByLabel] != cluster.ManagedByValue {
		t.Errorf("notebooks CRD: labels %v, err %v; want installed by kueue-sim", got.Labels, err)
	}
	if err := c.Get(ctx, client.ObjectKey{Name: theirs.Name}, &got); err != nil || got.Labels[cluster.ManagedByLabel] != "" {
		t.Errorf("someone else's CRD %s: labels %v, err %v; want it untouched", theirs.Name, got.Labels, err)
	}
	if err := c.Get(ctx, client.ObjectKey{Name: "clusterqueues.kueue.x-k8s.io"}, &got); !apierrors.IsNotFound(err) {
		t.Errorf("Kueue's CRDs installed although the cluster runs Kueue (err %v)", err)
	}

	// The API server reaches the webhook over TLS at the registered URL:
	// rule 1 refuses a PyTorchJob without a queue label.
	dsc := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: "dsc"}}
	dsc.Spec.Components.Kueue.ManagementState = dscv1.Unmanaged
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team", Labels: map[string]string{dscv1.KueueManagedLabel: "true"}}}
	for _, obj := range []client.Object{dsc, ns} {
		if err := c.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
	}
	err = c.Create(ctx, testingpytorch.MakePyTorchJob("no-label", "team").PyTorchReplicaSpecsOnlyMasterDefault().Obj())
	if err == nil || !strings.Contains(err.Error(), webhook.QueueLabel) {
		t.Errorf("PyTorchJob without a queue label: err = %v, want the webhook's refusal", err)
	}
	var v admissionv1.ValidatingWebhookConfiguration
	if err := c.Get(ctx, client.ObjectKey{Name: webhook.ValidatingConfigurationName}, &v); err != nil {
		t.Fatal(err)
	}
	if u := v.Webhooks[0].ClientConfig.URL; u == nil || !strings.HasPrefix(*u, cp.WebhookURL()) || len(v.Webhooks[0].ClientConfig.CABundle) == 0 {
		t.Errorf("registered client config %+v, want URL under %s and a CA bundle", v.Webhooks[0].ClientConfig, cp.WebhookURL())
	}

	// A second kueue-sim on the same cluster is refused while this one serves.
	if second, err := cluster.Connect(ctx, cfg, cluster.WithoutKueue(), cluster.WithoutCRDInstall(),
		cluster.WithSetup(webhook.Setup), cluster.WithWebhooks(muts, vals)); err == nil {
		_ = second.Stop()
		t.Error("a second Connect took over the webhooks of a live one")
	} else if !strings.Contains(err.Error(), "another kueue-sim") {
		t.Errorf("second Connect: err = %v, want it to name the live kueue-sim", err)
	}

	stopped = true
	if err := cp.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, obj := range []client.Object{&admissionv1.ValidatingWebhookConfiguration{}, &admissionv1.MutatingWebhookConfiguration{}} {
		name := webhook.ValidatingConfigurationName
		if _, ok := obj.(*admissionv1.MutatingWebhookConfiguration); ok {
			name = webhook.MutatingConfigurationName
		}
		if err := c.Get(ctx, client.ObjectKey{Name: name}, obj); !apierrors.IsNotFound(err) {
			t.Errorf("webhook configuration %s after Stop: err = %v, want it deleted (it fails closed)", name, err)
		}
	}
}

func TestConnectRefusesToReplaceAnInstalledKueue(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kueues := &admissionv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: cluster.KueueMutatingConfigurationName}}
	if err := c.Create(ctx, kueues); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Delete(ctx, kueues) }()
	cp, err := cluster.Connect(ctx, cfg, cluster.WithoutCRDInstall())
	if err == nil {
		_ = cp.Stop()
		t.Fatal("Connect replaced the webhook configuration of an installed Kueue")
	}
	if !strings.Contains(err.Error(), "--without-kueue") {
		t.Errorf("err = %v, want it to say to run without Kueue", err)
	}
}

func crd(t *testing.T, name string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	crds, err := assets.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range crds {
		if c.Name == name {
			return c.DeepCopy()
		}
	}
	t.Fatalf("no embedded CRD %s", name)
	return nil
}
