package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/scheme"
	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/kubelet"
	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// ControlPlane is a running embedded control plane.
type ControlPlane struct {
	// Config reaches the API server as a member of system:masters.
	Config *rest.Config
	// Client is a direct (uncached) client with Scheme.
	Client client.Client
	Scheme *runtime.Scheme
	// Kubelet is the fake kubelet; Finish ends pods. Nil on an existing
	// cluster (Connect), whose kubelets (or KWOK) run the pods.
	Kubelet *kubelet.Kubelet
	// Kueue exposes the in-process Kueue's queues and cache; nil when Kueue
	// is the cluster's own (Connect with WithoutKueue).
	Kueue *kueuesetup.Kueue
	// Manager is the in-process manager: its cache and cached client serve
	// observers that must not load the API server.
	Manager ctrl.Manager
	// RunDir holds this run's files; it is removed by Stop.
	RunDir string
	// Binaries are the control-plane binaries in use.
	Binaries assets.Binaries

	env      *envtest.Environment
	etcd     etcdState
	run      *procs.RunDir
	admin    *envtest.AuthenticatedUser
	children []*procs.Process
	envPIDs  map[string]int
	// webhookPort holds the webhook server's port from kube-apiserver's
	// start until the manager binds it (webhook_port.go).
	webhookPort net.Listener
	mgrCancel   context.CancelFunc
	mgrDone     chan struct{} // closed when the manager returns
	mgrErr      error
	// eventBroadcaster is the manager's in-process event broadcaster
	// (WithoutAPIEvents), shut down after the manager.
	eventBroadcaster record.EventBroadcaster
	// handlers marks what each handler of the manager's informers has
	// returned from (handler_marks.go); Unseen reads it.
	handlers   handlerMarks
	done       chan error
	stopOnce   sync.Once
	stopErr    error
	stopping   chan struct{}
	cleanupLog []string
	external   bool      // made by Connect: no child processes, no envtest
	ext        *external // what Connect registered, undone by Stop
}

// Start brings up a control plane. ctx bounds the start only; the control
// plane runs until Stop. On error, whatever had started is stopped.
func Start(ctx context.Context, opts ...Option) (_ *ControlPlane, err error) {
	o := options{runRoot: procs.DefaultRunRoot(), clock: clock.RealClock{}}
	for _, opt := range opts {
		opt(&o)
	}
	cp := &ControlPlane{done: make(chan error, 1), stopping: make(chan struct{}), envPIDs: map[string]int{}}
	if o.binaries == nil {
		b, err := assets.FindBinaries()
		if err != nil {
			return nil, err
		}
		o.binaries = &b
	}
	cp.Binaries = *o.binaries

	if cp.cleanupLog, err = procs.CleanupStale(o.runRoot); err != nil {
		return nil, fmt.Errorf("cleaning up after an earlier kueue-sim: %w", err)
	}
	if cp.run, err = procs.NewRunDir(o.runRoot); err != nil {
		return nil, err
	}
	cp.RunDir = cp.run.Path
	defer func() {
		if err != nil {
			_ = cp.Stop()
		}
	}()

	if cp.Scheme, err = scheme.New(); err != nil {
		return nil, err
	}
	if err := cp.startAPIServer(o); err != nil {
		return nil, err
	}
	createsTaken, err := crdsTakeCreatesAt(ctx, cp.Client)
	if err != nil {
		return nil, err
	}
	if !o.noPods {
		if err := cp.startChildren(ctx, o.noAPIEvents); err != nil {
			return nil, err
		}
	}
	wh := cp.env.WebhookInstallOptions
	cp.releaseWebhookPort()
	if err := cp.startManager(ctx, o, webhook.Options{
		Host: wh.LocalServingHost, Port: wh.LocalServingPort, CertDir: wh.LocalServingCertDir,
	}); err != nil {
		return nil, err
	}
	if err := cp.createBasics(ctx, o.pools); err != nil {
		return nil, err
	}
	// What is left of kube-apiserver's hold on creates of just-installed
	// custom resources is spent here, not at a replay's first step.
	if err := waitUntil(ctx, createsTaken); err != nil {
		return nil, err
	}
	go cp.watch()
	return cp, nil
}

// CleanupLog says what Start cleaned up after kueue-sim runs that were
// killed: leftover processes ended and folders removed.
func (cp *ControlPlane) CleanupLog() []string { return cp.cleanupLog }

// Done receives an error when a part of the control plane stops on its own
// (a child process exits, the manager fails). It is not sent on Stop.
func (cp *ControlPlane) Done() <-chan error { return cp.done }

// Stop ends every part in order: the manager (Kueue and kueue-sim's
// controllers), kube-scheduler and kube-controller-manager, kube-apiserver,
// etcd; then removes the run folder. It is safe to call more than once.
func (cp *ControlPlane) Stop() error {
	cp.stopOnce.Do(func() {
		close(cp.stopping)
		cp.releaseWebhookPort()
		var errs []error
		// An existing cluster must not keep calling webhooks that are about
		// to stop: they fail closed.
		errs = append(errs, cp.ext.unregister())
		if cp.mgrCancel != nil {
			cp.mgrCancel()
			select {
			case <-cp.mgrDone:
				if cp.mgrErr != nil && !errors.Is(cp.mgrErr, context.Canceled) {
					errs = append(errs, fmt.Errorf("stopping the manager: %w", cp.mgrErr))
				}
			case <-time.After(30 * time.Second):
				errs = append(errs, errors.New("stopping the manager: still running after 30s"))
			}
		}
		if cp.eventBroadcaster != nil {
			cp.eventBroadcaster.Shutdown()
		}
		for i := len(cp.children) - 1; i >= 0; i-- {
			errs = append(errs, cp.children[i].Stop(10*time.Second))
		}
		errs = append(errs, cp.closeEtcd())
		if cp.env != nil {
			if err := cp.env.Stop(); err != nil {
				errs = append(errs, fmt.Errorf("stopping kube-apiserver and etcd: %w", err))
			}
		}
		if cp.run != nil {
			errs = append(errs, cp.run.Remove())
		}
		errs = append(errs, cp.ext.removeFiles())
		cp.stopErr = errors.Join(errs...)
	})
	return cp.stopErr
}

// KubeConfig returns an admin kubeconfig for the control plane.
func (cp *ControlPlane) KubeConfig() ([]byte, error) {
	data, err := cp.admin.KubeConfig()
	if err != nil {
		return nil, fmt.Errorf("making admin kubeconfig: %w", err)
	}
	return data, nil
}

// WriteKubeConfig writes the admin kubeconfig to path with mode 0600.
func (cp *ControlPlane) WriteKubeConfig(path string) error {
	data, err := cp.KubeConfig()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}
	return os.Chmod(path, 0o600)
}

// createBasics creates Kueue's namespace and the node pools.
func (cp *ControlPlane) createBasics(ctx context.Context, pools []nodes.Pool) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kueue-system"}}
	if err := cp.Client.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace kueue-system: %w", err)
	}
	if err := nodes.Create(ctx, cp.Client, pools...); err != nil {
		return err
	}
	return nil
}

// watch reports the first part that stops on its own.
func (cp *ControlPlane) watch() {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	report := func(err error) {
		select {
		case <-cp.stopping:
		case cp.done <- err:
		default:
		}
	}
	exits := make(chan *procs.Process, len(cp.children))
	for _, c := range cp.children {
		go func(c *procs.Process) {
			<-c.Exited()
			exits <- c
		}(c)
	}
	for {
		select {
		case <-cp.stopping:
			return
		case c := <-exits:
			report(fmt.Errorf("%s exited on its own (%v); its log: %s", c.Name, c.Err(), cp.logPath(c.Name)))
			return
		case <-cp.mgrDone:
			report(fmt.Errorf("the in-process manager (Kueue) stopped: %v", cp.mgrErr))
			return
		case <-tick.C:
			for name, pid := range cp.envPIDs {
				if !procs.Alive(pid) {
					report(fmt.Errorf("%s (pid %d) exited on its own", name, pid))
					return
				}
			}
		}
	}
}
