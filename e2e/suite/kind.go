package suite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// Versions the kind path installs.
const (
	KueueManifests       = "https://github.com/kubernetes-sigs/kueue/releases/download/v0.17.1/manifests.yaml"
	CertManagerManifests = "https://github.com/cert-manager/cert-manager/releases/download/v1.18.2/cert-manager.yaml"
	// KindImage is the image e2e/kind builds from the Dockerfile and
	// config/deploy/overlays/kind deploys.
	KindImage = "kueue-sim:e2e"
)

// KindMissing says why the kind path cannot run here ("" when it can):
// kind, kubectl or a Docker engine is missing.
func KindMissing(ctx context.Context) string {
	for _, tool := range []string{"docker", "kind", "kubectl"} {
		if _, err := exec.LookPath(tool); err != nil {
			return tool + " is not installed"
		}
	}
	if out, err := exec.CommandContext(ctx, "docker", "info").CombinedOutput(); err != nil {
		return "no Docker engine answers (docker info: " + firstErrorLine(out, err) + ")"
	}
	return ""
}

func firstErrorLine(out []byte, err error) string {
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(strings.ToLower(l), "error") || strings.Contains(l, "Cannot connect") {
			return strings.TrimSpace(l)
		}
	}
	return err.Error()
}

// Kubectl runs kubectl against the suite's cluster.
func Kubectl(args ...string) env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		return ctx, kubectl(ctx, cfg, args...)
	}
}

func kubectl(ctx context.Context, cfg *envconf.Config, args ...string) error {
	cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", cfg.KubeconfigFile()}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("kubectl %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// Run runs a command from the repository's folder (docker build).
func Run(name string, args ...string) env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		root, err := RepoRoot(ctx)
		if err != nil {
			return ctx, err
		}
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return ctx, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
		}
		return ctx, nil
	}
}

// FakeGPUs patches a capacity of n nvidia.com/gpu into the status of every
// node labelled with a GPU product, as Kubernetes documents for extended
// resources no device plugin advertises.
func FakeGPUs(n int64) env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		c, err := Client(cfg)
		if err != nil {
			return ctx, err
		}
		var list corev1.NodeList
		if err := c.List(ctx, &list, client.HasLabels{nodes.GPUProductLabel}); err != nil {
			return ctx, fmt.Errorf("listing GPU nodes: %w", err)
		}
		if len(list.Items) == 0 {
			return ctx, errors.New("no node carries " + nodes.GPUProductLabel + ": check the kind config")
		}
		q := *resource.NewQuantity(n, resource.DecimalSI)
		for i := range list.Items {
			node := &list.Items[i]
			base := node.DeepCopy()
			node.Status.Capacity[nodes.GPUResource], node.Status.Allocatable[nodes.GPUResource] = q, q
			if err := c.Status().Patch(ctx, node, client.MergeFrom(base)); err != nil {
				return ctx, fmt.Errorf("patching the GPUs of node %s: %w", node.Name, err)
			}
		}
		return ctx, nil
	}
}

// PlatformCRDs installs the embedded CRDs Kueue's manifests do not bring
// (OpenShift AI's, the Kueue operator's, the training operator's, KubeRay's,
// the notebook and KServe kinds), as the cluster's admin: config/deploy's
// sim serve runs with --skip-crds.
func PlatformCRDs() env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		c, err := Client(cfg)
		if err != nil {
			return ctx, err
		}
		crds, err := assets.CRDs()
		if err != nil {
			return ctx, err
		}
		op, err := assets.KueueOperatorCRD()
		if err != nil {
			return ctx, err
		}
		for _, crd := range append(crds, op) {
			if strings.HasSuffix(crd.Name, ".kueue.x-k8s.io") {
				continue
			}
			if err := c.Create(ctx, crd); client.IgnoreAlreadyExists(err) != nil {
				return ctx, fmt.Errorf("installing CRD %s: %w", crd.Name, err)
			}
		}
		return ctx, nil
	}
}

// WaitAvailable waits until a Deployment is Available.
func WaitAvailable(namespace, name string, timeout time.Duration) env.Func {
	return Kubectl("wait", "--for=condition=Available", "--timeout="+timeout.String(), "-n", namespace, "deployment/"+name)
}

// WaitCABundle waits until the CA of kueue-sim's webhook certificate is in
// its webhook configurations (cert-manager's CA injector puts it there).
func WaitCABundle() env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		c, err := Client(cfg)
		if err != nil {
			return ctx, err
		}
		deadline := time.Now().Add(3 * time.Minute)
		for {
			m := &admissionv1.MutatingWebhookConfiguration{}
			v := &admissionv1.ValidatingWebhookConfiguration{}
			errM := c.Get(ctx, client.ObjectKey{Name: webhook.MutatingConfigurationName}, m)
			errV := c.Get(ctx, client.ObjectKey{Name: webhook.ValidatingConfigurationName}, v)
			if errM == nil && errV == nil && len(m.Webhooks) > 0 && len(v.Webhooks) > 0 &&
				len(m.Webhooks[0].ClientConfig.CABundle) > 0 && len(v.Webhooks[0].ClientConfig.CABundle) > 0 {
				return ctx, nil
			}
			if time.Now().After(deadline) {
				return ctx, fmt.Errorf("kueue-sim's webhook configurations have no CA bundle after 3m (is cert-manager's cainjector running?): %v", errors.Join(errM, errV))
			}
			select {
			case <-ctx.Done():
				return ctx, ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
}
