package suite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// EnvSim names a built sim binary for the suites (`make e2e` sets it to
// bin/sim); without it, SimBinary builds one.
const EnvSim = "KUEUESIM_E2E_SIM"

// SimBinary returns $KUEUESIM_E2E_SIM, or builds ./cmd/sim of this module
// into the e2e folder.
func SimBinary(ctx context.Context) (string, error) {
	if p := os.Getenv(EnvSim); p != "" {
		return p, nil
	}
	root, err := RepoRoot(ctx)
	if err != nil {
		return "", err
	}
	out := filepath.Join(Workdir(), "sim")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/sim")
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building sim (set %s to use a built one): %w: %s", EnvSim, err, msg)
	}
	return out, nil
}

// RepoRoot is the folder of kueue-sim's go.mod.
func RepoRoot(ctx context.Context) (string, error) {
	gomod, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(gomod)) == "" {
		return "", fmt.Errorf("finding kueue-sim's module (go env GOMOD): %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(gomod))), nil
}

type serveKey struct{}

// Serve returns the steps that start `sim serve --kubeconfig` against the
// suite's cluster, with extra args, and stop it. Start waits until sim
// reports its webhooks registered; its output goes to serve.log in the e2e
// folder and is shown when it fails.
func Serve(args ...string) (start, stop env.Func) {
	logPath := filepath.Join(Workdir(), "serve.log")
	start = func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		sim, err := SimBinary(ctx)
		if err != nil {
			return ctx, err
		}
		logf, err := os.Create(logPath)
		if err != nil {
			return ctx, fmt.Errorf("opening the log of sim serve: %w", err)
		}
		defer logf.Close()
		began := time.Now()
		p, err := procs.Start("sim serve", sim, append([]string{"serve", "--kubeconfig", cfg.KubeconfigFile()}, args...), logf)
		if err != nil {
			return ctx, err
		}
		ctx = context.WithValue(ctx, serveKey{}, p)
		for deadline := time.Now().Add(2 * time.Minute); ; {
			out, _ := os.ReadFile(logPath)
			if bytes.Contains(out, []byte("Press Ctrl-C to stop.")) {
				fmt.Printf("suite: sim serve ready in %s (%s)\n", time.Since(began).Round(10*time.Millisecond), firstLine(out, "webhooks registered"))
				return ctx, nil
			}
			select {
			case <-p.Exited():
				return ctx, fmt.Errorf("sim serve exited while starting (%v):\n%s", p.Err(), out)
			case <-time.After(100 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				return ctx, fmt.Errorf("sim serve not ready after 2m:\n%s", out)
			}
		}
	}
	stop = func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		p, ok := ctx.Value(serveKey{}).(*procs.Process)
		if !ok {
			return ctx, nil
		}
		var err error
		select {
		case <-p.Exited():
			err = fmt.Errorf("sim serve had exited during the suite (%v)", p.Err())
		default:
			err = p.Stop(30 * time.Second)
		}
		if err != nil {
			out, _ := os.ReadFile(logPath)
			fmt.Printf("suite: %v; its log:\n%s\n", err, out)
		}
		return ctx, err
	}
	return start, stop
}

// ServeExited tells whether the suite's sim serve has exited, with its
// error; for tests that want to fail at once when it crashed.
func ServeExited(ctx context.Context) error {
	p, ok := ctx.Value(serveKey{}).(*procs.Process)
	if !ok {
		return errors.New("no sim serve in this suite")
	}
	select {
	case <-p.Exited():
		return fmt.Errorf("sim serve exited: %v (log: %s)", p.Err(), filepath.Join(Workdir(), "serve.log"))
	default:
		return nil
	}
}

func firstLine(out []byte, prefix string) string {
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
