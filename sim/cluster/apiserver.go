package cluster

import (
	"fmt"
	"path/filepath"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// startAPIServer starts etcd and kube-apiserver through envtest, installs
// the CRDs and webhook configurations, and makes the admin user.
func (cp *ControlPlane) startAPIServer(o options) error {
	crds, err := assets.CRDs()
	if err != nil {
		return err
	}
	if !o.noKueueOperator {
		op, err := assets.KueueOperatorCRD()
		if err != nil {
			return err
		}
		crds = append(crds, op)
	}
	if crds, err = omitCRDs(crds, o.noCRDs); err != nil {
		return err
	}
	if o.kueueStorageOnly {
		crds = storageVersionOnly(crds, kueueGroup)
	}
	muts, vals, err := assets.KueueWebhooks()
	if err != nil {
		return err
	}
	if o.noStatusValidation {
		vals = withoutStatusRules(vals)
	}
	etcdDir, err := cp.run.Sub("etcd")
	if err != nil {
		return err
	}
	certDir, err := cp.run.Sub("apiserver")
	if err != nil {
		return err
	}
	whDir, err := cp.run.Sub("webhook-certs")
	if err != nil {
		return err
	}
	etcdLog, err := cp.logFile(assets.Etcd)
	if err != nil {
		return err
	}
	apiLog, err := cp.logFile(assets.APIServer)
	if err != nil {
		return err
	}

	whHost, whPort, err := cp.holdWebhookPort()
	if err != nil {
		return err
	}
	env := &envtest.Environment{
		Scheme:                cp.Scheme,
		BinaryAssetsDirectory: cp.Binaries.Dir,
		CRDInstallOptions: envtest.CRDInstallOptions{
			CRDs:               append(crds, o.crds...),
			ErrorIfPathMissing: true,
			// envtest waits 10 s by default; a busy 2-core machine needs more.
			MaxTime:      2 * time.Minute,
			PollInterval: 100 * time.Millisecond,
		},
		WebhookInstallOptions: envtest.WebhookInstallOptions{
			MutatingWebhooks:    append(muts, o.mutating...),
			ValidatingWebhooks:  append(vals, o.validating...),
			LocalServingCertDir: whDir,
			LocalServingHost:    whHost,
			LocalServingPort:    whPort,
		},
	}
	env.ControlPlane.Etcd = &envtest.Etcd{DataDir: etcdDir, Out: etcdLog, Err: etcdLog}
	env.ControlPlane.APIServer = &envtest.APIServer{CertDir: certDir, Out: apiLog, Err: apiLog}
	// Without a node-lifecycle controller nothing would lift the not-ready
	// taint this plugin puts on new nodes; nodes made Ready by hand must be
	// schedulable.
	env.ControlPlane.APIServer.Configure().Append("disable-admission-plugins", "TaintNodesByCondition")
	for _, r := range o.noWatchCache {
		env.ControlPlane.APIServer.Configure().Append("watch-cache-sizes", r+"#0")
	}
	cp.env = env

	if _, err := env.Start(); err != nil {
		return fmt.Errorf("starting kube-apiserver and etcd (logs in %s): %w", filepath.Dir(apiLog.Name()), err)
	}
	children, err := procs.Children(cp.Binaries.Dir)
	if err != nil {
		return err
	}
	for name, pid := range children {
		cp.envPIDs[name] = pid
		if err := cp.run.Record(name, pid); err != nil {
			return err
		}
	}

	cp.admin, err = env.AddUser(envtest.User{Name: "kueue-sim-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return fmt.Errorf("making the admin user: %w", err)
	}
	cp.Config = cp.admin.Config()
	cp.Config.QPS, cp.Config.Burst = 500, 1000
	cp.Client, err = client.New(cp.Config, client.Options{Scheme: cp.Scheme})
	if err != nil {
		return fmt.Errorf("making a client: %w", err)
	}
	return nil
}
