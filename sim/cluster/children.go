package cluster

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/procs"
	"github.com/kueue-sim/kueue-sim/sim/tools/pins/k8sbin/noapievents"
)

// controllers are the kube-controller-manager controllers the simulated
// workloads need; node lifecycle, service accounts and the rest stay off.
const controllers = "job,replicaset,deployment,statefulset,garbagecollector,namespace"

// clientRateLimit lifts kube-scheduler's and kube-controller-manager's
// client-side rate limits (defaults 50 QPS / burst 100 and 20 QPS / burst
// 30) to what kueue-sim's own clients use. With the defaults, the Job
// controller's pod creates, Job status updates and Events queue behind 20
// requests a second: an instant of 90 Jobs waited ~13 s for its pods. The
// limits change how fast the control plane settles, never what it decides
// (each step waits until it is quiet).
var clientRateLimit = []string{"--kube-api-qps=" + strconv.Itoa(clientQPS), "--kube-api-burst=" + strconv.Itoa(clientBurst)}

const clientQPS, clientBurst = 500, 1000

// startChildren starts kube-scheduler and kube-controller-manager, each with
// its own system:masters user, and waits until both answer /healthz. With
// noAPIEvents their kubeconfigs keep their Events out of the API server
// (WithoutAPIEvents).
func (cp *ControlPlane) startChildren(ctx context.Context, noAPIEvents bool) error {
	type child struct {
		name string
		args func(kubeconfig string, port int) ([]string, error)
	}
	for _, c := range []child{
		{assets.Scheduler, func(kc string, port int) ([]string, error) {
			// Kubeconfig, leader election and rate limits are in the
			// configuration (schedulerconfig.go).
			config, err := cp.writeSchedulerConfig(kc)
			return []string{"--config=" + config, "--bind-address=127.0.0.1", "--secure-port=" + strconv.Itoa(port)}, err
		}},
		{assets.ControllerManager, func(kc string, port int) ([]string, error) {
			return append([]string{
				"--kubeconfig=" + kc, "--leader-elect=false",
				"--bind-address=127.0.0.1", "--secure-port=" + strconv.Itoa(port),
				"--controllers=" + controllers, "--use-service-account-credentials=false",
				// Quick reactions: the simulator waits on these controllers.
				"--concurrent-job-syncs=10", "--concurrent-gc-syncs=10",
				// The Job controller syncs a Job as soon as its pods change,
				// not a wall second later (kueue-sim's build; see
				// sim/tools/pins/k8sbin/kube-controller-manager).
				"--kueue-sim-job-sync-batch-period=0",
			}, clientRateLimit...), nil
		}},
	} {
		if err := checkBuild(ctx, c.name, cp.Binaries.Path(c.name)); err != nil {
			return err
		}
		kc, err := cp.userKubeconfig(c.name, noAPIEvents)
		if err != nil {
			return err
		}
		port, err := freePort()
		if err != nil {
			return err
		}
		logf, err := cp.logFile(c.name)
		if err != nil {
			return err
		}
		args, err := c.args(kc, port)
		if err != nil {
			return err
		}
		p, err := procs.Start(c.name, cp.Binaries.Path(c.name), args, logf)
		if err != nil {
			return err
		}
		cp.children = append(cp.children, p)
		if err := cp.run.Record(c.name, p.PID()); err != nil {
			return err
		}
		if err := waitHealthy(ctx, p, port); err != nil {
			return fmt.Errorf("%w (log: %s)", err, cp.logPath(c.name))
		}
	}
	return nil
}

// userKubeconfig makes a system:masters user named after a component and
// writes its kubeconfig into the run folder; with noAPIEvents the user
// names the auth-provider of kueue-sim's builds that answers the
// component's Event writes itself (sim/tools/pins/k8sbin/noapievents).
func (cp *ControlPlane) userKubeconfig(name string, noAPIEvents bool) (string, error) {
	u, err := cp.env.AddUser(envtest.User{Name: "kueue-sim-" + name, Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return "", fmt.Errorf("making user for %s: %w", name, err)
	}
	data, err := u.KubeConfig()
	if err != nil {
		return "", fmt.Errorf("making kubeconfig for %s: %w", name, err)
	}
	if noAPIEvents {
		if data, err = noapievents.Kubeconfig(data); err != nil {
			return "", fmt.Errorf("making kubeconfig for %s: %w", name, err)
		}
	}
	dir, err := cp.run.Sub("kubeconfigs")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".kubeconfig")
	return path, os.WriteFile(path, data, 0o600)
}

// waitHealthy polls https://127.0.0.1:port/healthz until it answers 200, the
// process exits, or a minute passes.
func waitHealthy(ctx context.Context, p *procs.Process, port int) error {
	hc := &http.Client{
		Timeout: time.Second,
		// The component serves a self-signed certificate on loopback.
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, //nolint:gosec
	}
	url := fmt.Sprintf("https://127.0.0.1:%d/healthz", port)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.Exited():
			return fmt.Errorf("%s exited while starting: %v", p.Name, p.Err())
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to be healthy: %w", p.Name, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// checkBuild tells whether the binary at path is kueue-sim's build of
// the component name (assets.Built), which knows the flags and kubeconfig
// entries startChildren gives it.
func checkBuild(ctx context.Context, name, path string) error {
	if !slices.Contains(assets.Built, name) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if v := strings.TrimSpace(string(out)); err != nil || !strings.Contains(v, "+"+assets.Build) {
		return fmt.Errorf("%s is not kueue-sim's build of %s (it reports %q, want +%s): run `sim tools install` to rebuild it", path, name, v, assets.Build)
	}
	return nil
}
