package suite

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/tools/clientcmd"
	certutil "k8s.io/client-go/util/cert"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/yaml"
)

// ServiceAccount is the identity config/deploy gives `sim serve`.
const ServiceAccount = "system:serviceaccount:kueue-sim-system:kueue-sim"

// Apply creates the objects of the YAML files (paths relative to the
// repository), as the cluster's admin.
func Apply(files ...string) env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		root, err := RepoRoot(ctx)
		if err != nil {
			return ctx, err
		}
		c, err := Client(cfg)
		if err != nil {
			return ctx, err
		}
		for _, f := range files {
			objs, err := readObjects(filepath.Join(root, f))
			if err != nil {
				return ctx, err
			}
			for _, obj := range objs {
				if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
					return ctx, fmt.Errorf("applying %s %s from %s: %w", obj.GetKind(), obj.GetName(), f, err)
				}
			}
		}
		return ctx, nil
	}
}

func readObjects(path string) ([]*unstructured.Unstructured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading manifests: %w", err)
	}
	var out []*unstructured.Unstructured
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if len(obj.Object) > 0 {
			out = append(out, obj)
		}
	}
}

// WebhookServing is where a `sim serve --cert-dir` of the suite listens,
// with the certificate it serves, as a Service and cert-manager (or the
// OpenShift service CA) would provide in a cluster.
type WebhookServing struct {
	Port    int
	CertDir string
	ca      []byte
}

// NewWebhookServing picks a free port on 127.0.0.1 and writes a serving
// certificate for that address into the e2e folder.
func NewWebhookServing() (*WebhookServing, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("finding a port for the webhooks: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	crt, key, err := certutil.GenerateSelfSignedCertKey("127.0.0.1", []net.IP{net.ParseIP("127.0.0.1")}, nil)
	if err != nil {
		return nil, fmt.Errorf("making the webhook serving certificate: %w", err)
	}
	dir := filepath.Join(Workdir(), "serving-certs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("writing the webhook serving certificate: %w", err)
	}
	for name, data := range map[string][]byte{"tls.crt": crt, "tls.key": key} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return nil, fmt.Errorf("writing the webhook serving certificate: %w", err)
		}
	}
	return &WebhookServing{Port: port, CertDir: dir, ca: crt}, nil
}

// Args are the `sim serve` flags for this serving address.
func (w *WebhookServing) Args() []string {
	return []string{"--cert-dir", w.CertDir, "--webhook-host", "127.0.0.1", "--webhook-port", strconv.Itoa(w.Port)}
}

// ApplyWebhooks creates the webhook configurations of file (the committed
// manifests for a cluster), their Service reference replaced with this
// address and CA bundle.
func (w *WebhookServing) ApplyWebhooks(file string) env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		root, err := RepoRoot(ctx)
		if err != nil {
			return ctx, err
		}
		c, err := Client(cfg)
		if err != nil {
			return ctx, err
		}
		objs, err := readObjects(filepath.Join(root, file))
		if err != nil {
			return ctx, err
		}
		for _, u := range objs {
			obj, err := w.pointed(u)
			if err != nil {
				return ctx, fmt.Errorf("%s: %w", file, err)
			}
			if err := c.Create(ctx, obj); err != nil {
				return ctx, fmt.Errorf("creating %s from %s: %w", obj.GetName(), file, err)
			}
		}
		return ctx, nil
	}
}

func (w *WebhookServing) pointed(u *unstructured.Unstructured) (client.Object, error) {
	data, err := yaml.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	point := func(cc *admissionv1.WebhookClientConfig) {
		url := fmt.Sprintf("https://127.0.0.1:%d%s", w.Port, *cc.Service.Path)
		cc.Service, cc.URL, cc.CABundle = nil, &url, w.ca
	}
	switch u.GetKind() {
	case "MutatingWebhookConfiguration":
		m := &admissionv1.MutatingWebhookConfiguration{}
		if err := yaml.UnmarshalStrict(data, m); err != nil {
			return nil, err
		}
		for i := range m.Webhooks {
			point(&m.Webhooks[i].ClientConfig)
		}
		return m, nil
	case "ValidatingWebhookConfiguration":
		v := &admissionv1.ValidatingWebhookConfiguration{}
		if err := yaml.UnmarshalStrict(data, v); err != nil {
			return nil, err
		}
		for i := range v.Webhooks {
			point(&v.Webhooks[i].ClientConfig)
		}
		return v, nil
	}
	return nil, fmt.Errorf("%s %s is not a webhook configuration", u.GetKind(), u.GetName())
}

// ImpersonatingKubeconfig writes a copy of the suite's kubeconfig that acts
// as user (a ServiceAccount's name), so that sim runs with exactly the
// rights the manifests grant that ServiceAccount.
func ImpersonatingKubeconfig(user string, groups ...string) func(context.Context, *envconf.Config) (string, error) {
	return func(_ context.Context, cfg *envconf.Config) (string, error) {
		kc, err := clientcmd.LoadFromFile(cfg.KubeconfigFile())
		if err != nil {
			return "", fmt.Errorf("reading the suite's kubeconfig: %w", err)
		}
		for _, a := range kc.AuthInfos {
			a.Impersonate, a.ImpersonateGroups = user, groups
		}
		path := filepath.Join(Workdir(), "impersonating.kubeconfig")
		if err := clientcmd.WriteToFile(*kc, path); err != nil {
			return "", fmt.Errorf("writing the impersonating kubeconfig: %w", err)
		}
		return path, nil
	}
}
