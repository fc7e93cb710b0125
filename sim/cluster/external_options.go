package cluster

// externalOptions configure Connect only.
type externalOptions struct {
	webhookHost string
	webhookPort int
	certDir     string
	noKueue     bool
	noCRDs      bool
}

// WithWebhookAddress makes the webhook server listen on host:port, and
// (unless WithServingCertDir is given) registers the webhook configurations
// with the URL https://host:port/..., so host must be an address the
// cluster's API server reaches. Default: 127.0.0.1 and a free port, right
// for an API server on this machine (kwokctl's binary runtime). Connect only.
func WithWebhookAddress(host string, port int) Option {
	return func(o *options) { o.ext.webhookHost, o.ext.webhookPort = host, port }
}

// WithServingCertDir serves the webhooks with the certificate in dir
// (tls.crt, tls.key) and leaves the webhook configurations to the cluster's
// manifests, whose caBundle matches that certificate (config/deploy: a
// Deployment behind a Service). Without it, Connect makes a certificate
// authority and a serving certificate and registers the configurations
// with that CA. Connect only.
func WithServingCertDir(dir string) Option { return func(o *options) { o.ext.certDir = dir } }

// WithoutKueue leaves Kueue out of the manager: the cluster runs its own
// (installed from Kueue's release manifests). Kueue's CRDs and webhook
// configurations are then the cluster's business too. Connect only.
func WithoutKueue() Option { return func(o *options) { o.ext.noKueue = true } }

// WithoutCRDInstall leaves the CRDs to the cluster's manifests: Connect then
// needs no right to create CustomResourceDefinitions. Connect only.
func WithoutCRDInstall() Option { return func(o *options) { o.ext.noCRDs = true } }
