package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// Names of Kueue's webhook configurations on an existing cluster: those of
// Kueue's release manifests, so that a Kueue already installed is noticed,
// and sorting after kueue-sim's hardware-profile webhook, which must set the
// queue label before Kueue's defaulting reads it.
const (
	KueueMutatingConfigurationName   = "kueue-mutating-webhook-configuration"
	KueueValidatingConfigurationName = "kueue-validating-webhook-configuration"
)

// systemNamespaces are kept out of Kueue's pod, Deployment and StatefulSet
// webhooks, as Kueue's own manifests do: a cluster's system pods must not
// wait on webhooks run by kueue-sim.
var systemNamespaces = []string{"kube-system", "kueue-system", "local-path-storage"}

// prepareWebhooks makes the serving certificate and the webhook
// configurations that point at it. It returns nil when the configurations
// are the cluster's business (WithServingCertDir).
func (cp *ControlPlane) prepareWebhooks(ctx context.Context, o options) (*envtest.WebhookInstallOptions, error) {
	if o.ext.certDir != "" {
		return nil, nil
	}
	var muts []*admissionv1.MutatingWebhookConfiguration
	var vals []*admissionv1.ValidatingWebhookConfiguration
	if !o.ext.noKueue {
		km, kv, err := assets.KueueWebhooks()
		if err != nil {
			return nil, err
		}
		for _, m := range km {
			m.Name = KueueMutatingConfigurationName
			for i := range m.Webhooks {
				keepOutSystemNamespaces(m.Webhooks[i].Name, &m.Webhooks[i].NamespaceSelector)
			}
		}
		for _, v := range kv {
			v.Name = KueueValidatingConfigurationName
			for i := range v.Webhooks {
				keepOutSystemNamespaces(v.Webhooks[i].Name, &v.Webhooks[i].NamespaceSelector)
			}
		}
		muts, vals = km, kv
	}
	for _, m := range o.mutating {
		muts = append(muts, m.DeepCopy())
	}
	for _, v := range o.validating {
		vals = append(vals, v.DeepCopy())
	}
	var objs []client.Object
	for _, m := range muts {
		objs = append(objs, m)
	}
	for _, v := range vals {
		objs = append(objs, v)
	}
	for _, obj := range objs {
		if err := cp.checkOwnership(ctx, obj); err != nil {
			return nil, err
		}
		labels := obj.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[ManagedByLabel] = ManagedByValue
		obj.SetLabels(labels)
	}
	host := o.ext.webhookHost
	if host == "" {
		host = "127.0.0.1"
	}
	wio := &envtest.WebhookInstallOptions{
		MutatingWebhooks: muts, ValidatingWebhooks: vals,
		LocalServingHost: host, LocalServingPort: o.ext.webhookPort,
		MaxTime: time.Minute, PollInterval: 100 * time.Millisecond,
	}
	if err := wio.PrepWithoutInstalling(); err != nil {
		_ = wio.Cleanup()
		return nil, fmt.Errorf("making the webhook serving certificate: %w", err)
	}
	cp.ext.certDir = wio.LocalServingCertDir
	cp.ext.url = "https://" + net.JoinHostPort(host, strconv.Itoa(wio.LocalServingPort))
	return wio, nil
}

// checkOwnership refuses to overwrite a webhook configuration kueue-sim did
// not make: on a cluster that runs Kueue already, kueue-sim must run
// without its own (WithoutKueue).
func (cp *ControlPlane) checkOwnership(ctx context.Context, obj client.Object) error {
	existing := obj.DeepCopyObject().(client.Object)
	err := cp.Client.Get(ctx, client.ObjectKeyFromObject(obj), existing)
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		return fmt.Errorf("reading webhook configuration %s: %w", obj.GetName(), err)
	case existing.GetLabels()[ManagedByLabel] != ManagedByValue:
		return fmt.Errorf("webhook configuration %s exists and was not made by kueue-sim: "+
			"the cluster runs it already (for Kueue's, run kueue-sim without its own Kueue: sim serve --without-kueue)", obj.GetName())
	}
	if u := liveURL(existing); u != "" {
		return fmt.Errorf("webhook configuration %s points at %s, where another kueue-sim (sim serve or sim run --kubeconfig) answers: "+
			"one Kueue per cluster, stop that one first", obj.GetName(), u)
	}
	return nil // left by a kueue-sim that was killed: taken over
}

// liveURL returns the URL of obj's first webhook if something listens
// there, "" otherwise.
func liveURL(obj client.Object) string {
	var cc admissionv1.WebhookClientConfig
	switch o := obj.(type) {
	case *admissionv1.MutatingWebhookConfiguration:
		if len(o.Webhooks) == 0 {
			return ""
		}
		cc = o.Webhooks[0].ClientConfig
	case *admissionv1.ValidatingWebhookConfiguration:
		if len(o.Webhooks) == 0 {
			return ""
		}
		cc = o.Webhooks[0].ClientConfig
	}
	if cc.URL == nil {
		return ""
	}
	u, err := url.Parse(*cc.URL)
	if err != nil || u.Host == "" {
		return ""
	}
	conn, err := net.DialTimeout("tcp", u.Host, 500*time.Millisecond)
	if err != nil {
		return ""
	}
	_ = conn.Close()
	return u.Scheme + "://" + u.Host
}

// registerWebhooks creates (or updates) the webhook configurations and
// waits until the API server has them.
func (cp *ControlPlane) registerWebhooks(wio *envtest.WebhookInstallOptions) error {
	for _, m := range wio.MutatingWebhooks {
		cp.ext.registered = append(cp.ext.registered, &admissionv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: m.Name}})
	}
	for _, v := range wio.ValidatingWebhooks {
		cp.ext.registered = append(cp.ext.registered, &admissionv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: v.Name}})
	}
	if err := wio.Install(cp.Config); err != nil {
		return fmt.Errorf("registering the webhook configurations: %w", err)
	}
	return nil
}

// unregister deletes the webhook configurations Connect registered.
func (e *external) unregister() error {
	if e == nil || len(e.registered) == 0 {
		return nil
	}
	c, err := client.New(e.cfg, client.Options{})
	if err != nil {
		return fmt.Errorf("deleting the webhook configurations: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var errs []error
	for _, obj := range e.registered {
		if err := c.Delete(ctx, obj); client.IgnoreNotFound(err) != nil {
			errs = append(errs, fmt.Errorf("deleting webhook configuration %s: %w", obj.GetName(), err))
		}
	}
	e.registered = nil
	return errors.Join(errs...)
}

// keepOutSystemNamespaces adds Kueue's namespace exclusion to its webhooks
// on pods, Deployments, StatefulSets and LeaderWorkerSets.
func keepOutSystemNamespaces(name string, sel **metav1.LabelSelector) {
	switch name {
	case "mpod.kb.io", "vpod.kb.io", "mdeployment.kb.io", "vdeployment.kb.io",
		"mstatefulset.kb.io", "vstatefulset.kb.io", "mleaderworkerset.kb.io", "vleaderworkerset.kb.io":
	default:
		return
	}
	if *sel == nil {
		*sel = &metav1.LabelSelector{}
	}
	(*sel).MatchExpressions = append((*sel).MatchExpressions, metav1.LabelSelectorRequirement{
		Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn, Values: systemNamespaces,
	})
}
