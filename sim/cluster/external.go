package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/kueue-sim/kueue-sim/scheme"
)

// ManagedByLabel (value ManagedByValue) marks the CRDs and webhook
// configurations Connect installs: it updates and removes only those.
const (
	ManagedByLabel = "app.kubernetes.io/managed-by"
	ManagedByValue = "kueue-sim"
)

// DefaultWebhookPort is where an in-cluster `sim serve` listens
// (controller-runtime's default, the Service's targetPort in config/deploy).
const DefaultWebhookPort = 9443

// external is what Connect installed into a cluster, undone by Stop.
type external struct {
	cfg        *rest.Config
	registered []client.Object // webhook configurations to delete on Stop
	certDir    string          // generated certificates to remove on Stop
	url        string          // where the API server calls the webhooks
}

// Connect runs kueue-sim's in-process parts against an existing cluster
// reached through cfg: Kueue (unless WithoutKueue), and whatever the options
// add (the platform's reconciler, webhooks and fake operators: platform.Options).
// The cluster's own kube-scheduler, kube-controller-manager and kubelets (or
// KWOK) do the rest; there is no fake kubelet and nothing to start.
//
// Unless told otherwise it installs the embedded CRDs it needs (creating
// the missing ones, updating only those it created earlier), serves the
// webhooks over TLS with a certificate it makes, and registers their
// configurations with the URL and CA bundle the API server needs. Stop
// deletes those configurations, since they fail closed. WithNodePools is an
// error here: an existing cluster brings its own nodes (sim/kwok makes KWOK
// ones).
func Connect(ctx context.Context, cfg *rest.Config, opts ...Option) (_ *ControlPlane, err error) {
	o := options{clock: clock.RealClock{}}
	for _, opt := range opts {
		opt(&o)
	}
	if len(o.pools) > 0 {
		return nil, errors.New("connecting to a cluster: node pools cannot be made on an existing cluster; create its nodes first (sim/kwok.CreateNodes for KWOK nodes)")
	}
	cp := &ControlPlane{done: make(chan error, 1), stopping: make(chan struct{}), envPIDs: map[string]int{},
		external: true, ext: &external{}}
	defer func() {
		if err != nil {
			_ = cp.Stop()
		}
	}()
	if cp.Scheme, err = scheme.New(); err != nil {
		return nil, err
	}
	cp.Config = rest.CopyConfig(cfg)
	cp.Config.QPS, cp.Config.Burst = 500, 1000
	cp.ext.cfg = cp.Config
	if cp.Client, err = client.New(cp.Config, client.Options{Scheme: cp.Scheme}); err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	var createsTaken time.Time
	if !o.ext.noCRDs {
		if err := cp.installCRDs(ctx, o); err != nil {
			return nil, err
		}
		if createsTaken, err = crdsTakeCreatesAt(ctx, cp.Client); err != nil {
			return nil, err
		}
	}
	hooks, err := cp.prepareWebhooks(ctx, o)
	if err != nil {
		return nil, err
	}
	if !o.ext.noKueue {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kueue-system"}}
		if err := cp.Client.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
			return nil, fmt.Errorf("creating namespace kueue-system: %w", err)
		}
	}
	srv := webhook.Options{Host: o.ext.webhookHost, Port: o.ext.webhookPort, CertDir: o.ext.certDir}
	if hooks != nil {
		srv = webhook.Options{Host: hooks.LocalServingHost, Port: hooks.LocalServingPort, CertDir: hooks.LocalServingCertDir}
	}
	if err := cp.startManager(ctx, o, srv); err != nil {
		return nil, err
	}
	if hooks != nil {
		if err := cp.registerWebhooks(hooks); err != nil {
			return nil, err
		}
	}
	// kube-apiserver holds creates of just-installed custom resources (see
	// crdCreateHold): wait out what is left of it here.
	if err := waitUntil(ctx, createsTaken); err != nil {
		return nil, err
	}
	go cp.watch()
	return cp, nil
}

// removeFiles removes the certificates Connect generated.
func (e *external) removeFiles() error {
	if e == nil || e.certDir == "" {
		return nil
	}
	if err := os.RemoveAll(e.certDir); err != nil {
		return fmt.Errorf("removing the webhook certificates: %w", err)
	}
	return nil
}

// WebhookURL is the base URL the cluster's API server calls the webhooks
// at, when Connect registered them; "" otherwise.
func (cp *ControlPlane) WebhookURL() string {
	if cp.ext == nil {
		return ""
	}
	return cp.ext.url
}
