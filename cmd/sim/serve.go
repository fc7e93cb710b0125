package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/platform"
)

type serveFlags struct {
	kubeconfig  string
	kueueConfig string
	noKueue     bool
	noPlatform  bool
	noOperator  bool
	noCRDs      bool
	host        string
	port        int
	certDir     string
}

func newServeCmd() *cobra.Command {
	f := &serveFlags{}
	cmd := &cobra.Command{
		Use:   "serve [--kubeconfig PATH]",
		Short: "Run Kueue, the platform's reconciler and webhooks and the fake operators against an existing cluster",
		Long: `sim serve runs kueue-sim's in-process parts against an existing cluster: the
real Kueue (unless --without-kueue), the OpenShift AI reconciler and admission
webhooks, and the fake operators (training operator, KubeRay, notebook
controller, KServe). The cluster brings its API server, scheduler,
controller manager and nodes (or KWOK fake nodes). It runs until Ctrl-C or
SIGTERM.

From outside the cluster (the default) it installs the CRDs it needs (never
replacing CRDs it did not install), serves the webhooks over TLS with a
certificate it makes, and registers the webhook configurations with the URL
https://--webhook-host:PORT and that certificate's CA; on exit it deletes
them, since they fail closed. The API server must reach that address: on a
local API server (a kwokctl cluster) the default 127.0.0.1 does.

In a Deployment (config/deploy) the manifests install the CRDs and webhook
configurations and a Secret holds the certificate: run
  sim serve --cert-dir /tmp/k8s-webhook-server/serving-certs --skip-crds
and, where Kueue is installed from its release manifests, --without-kueue.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "kubeconfig of the cluster (default: $KUBECONFIG, ~/.kube/config, then the in-cluster service account)")
	fl.StringVar(&f.kueueConfig, "kueue-config", "", "Kueue Configuration file (config.kueue.x-k8s.io/v1beta2)")
	fl.BoolVar(&f.noKueue, "without-kueue", false, "do not run Kueue: the cluster runs its own")
	fl.BoolVar(&f.noPlatform, "without-platform", false, "run only Kueue, as a Kueue install would (no reconciler, webhooks or fake operators)")
	fl.BoolVar(&f.noOperator, "without-kueue-operator", false, "leave out the Red Hat build of Kueue operator's CRD (the platform then reports Kueue as not installed)")
	fl.BoolVar(&f.noCRDs, "skip-crds", false, "do not install CRDs: the cluster's manifests did")
	fl.StringVar(&f.host, "webhook-host", "", "address the webhook server listens on and, without --cert-dir, the API server calls (default 127.0.0.1; all addresses with --cert-dir)")
	fl.IntVar(&f.port, "webhook-port", 0, fmt.Sprintf("webhook server port (default: a free port; %d with --cert-dir)", cluster.DefaultWebhookPort))
	fl.StringVar(&f.certDir, "cert-dir", "", "serve the webhooks with tls.crt and tls.key from this folder and leave the webhook configurations to the manifests")
	return cmd
}

func runServe(cmd *cobra.Command, f *serveFlags) error {
	out := cmd.OutOrStdout()
	cfg, err := cluster.LoadKubeconfig(f.kubeconfig)
	if err != nil {
		return withExitCode(2, err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if f.noKueue && f.noPlatform {
		return withExitCode(2, errors.New("--without-kueue and --without-platform leave nothing to serve"))
	}
	opts := []cluster.Option{cluster.WithKueueConfigFile(f.kueueConfig)}
	if !f.noPlatform {
		opts = append(opts, platform.Options(platform.Settings{OperatorInstalled: !f.noOperator})...)
	} else if f.noOperator {
		opts = append(opts, cluster.WithoutKueueOperator())
	}
	if f.noKueue {
		opts = append(opts, cluster.WithoutKueue())
	}
	if f.noCRDs {
		opts = append(opts, cluster.WithoutCRDInstall())
	}
	if f.certDir != "" {
		if f.port == 0 {
			f.port = cluster.DefaultWebhookPort
		}
		opts = append(opts, cluster.WithServingCertDir(f.certDir))
	}
	if f.host != "" || f.port != 0 {
		opts = append(opts, cluster.WithWebhookAddress(f.host, f.port))
	}
	fmt.Fprintf(out, "connecting to %s...\n", cfg.Host)
	began := time.Now()
	cp, err := cluster.Connect(ctx, cfg, opts...)
	if err != nil {
		return fmt.Errorf("starting kueue-sim against %s: %w", cfg.Host, err)
	}
	parts := "Kueue, the reconciler, the webhooks and the fake operators"
	switch {
	case f.noKueue:
		parts = "the reconciler, the webhooks and the fake operators (Kueue is the cluster's)"
	case f.noPlatform:
		parts = "Kueue"
	}
	fmt.Fprintf(out, "serving %s against %s, ready in %s\n", parts, cfg.Host, time.Since(began).Round(100*time.Millisecond))
	if u := cp.WebhookURL(); u != "" {
		fmt.Fprintf(out, "webhooks registered at %s\n", u)
	}
	fmt.Fprintln(out, "Press Ctrl-C to stop.")

	var crashed error
	select {
	case <-ctx.Done():
		fmt.Fprintln(out, "stopping...")
	case crashed = <-cp.Done():
		fmt.Fprintf(out, "stopping: %v\n", crashed)
	}
	stop()
	if err := cp.Stop(); err != nil {
		return errors.Join(crashed, fmt.Errorf("stopping: %w", err))
	}
	if crashed != nil {
		return crashed
	}
	fmt.Fprintln(out, "stopped")
	return nil
}
