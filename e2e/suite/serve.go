package suite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

type serveKey string

// ServeOptions configure a `sim serve` of a suite.
type ServeOptions struct {
	// Name tells several serves apart: their log is <name>.log in the e2e
	// folder; default "serve".
	Name string
	// Args are added to `sim serve --kubeconfig PATH`.
	Args []string
	// Kubeconfig returns the kubeconfig sim uses; default: the suite's.
	Kubeconfig func(ctx context.Context, cfg *envconf.Config) (string, error)
}

// Serve returns the steps that start `sim serve` against the suite's
// cluster and stop it. Start waits until sim says it is ready; its output
// (errors included, -v 1) goes to a log in the e2e folder, shown when it
// fails.
func Serve(o ServeOptions) (start, stop env.Func) {
	if o.Name == "" {
		o.Name = "serve"
	}
	logPath := filepath.Join(Workdir(), o.Name+".log")
	start = func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		sim, err := SimBinary(ctx)
		if err != nil {
			return ctx, err
		}
		kubeconfig := cfg.KubeconfigFile()
		if o.Kubeconfig != nil {
			if kubeconfig, err = o.Kubeconfig(ctx, cfg); err != nil {
				return ctx, err
			}
		}
		logf, err := os.Create(logPath)
		if err != nil {
			return ctx, fmt.Errorf("opening the log of sim serve: %w", err)
		}
		defer logf.Close()
		began := time.Now()
		p, err := procs.Start("sim serve", sim, append([]string{"serve", "--kubeconfig", kubeconfig, "-v", "1"}, o.Args...), logf)
		if err != nil {
			return ctx, err
		}
		ctx = context.WithValue(ctx, serveKey(o.Name), p)
		for deadline := time.Now().Add(2 * time.Minute); ; {
			out, _ := os.ReadFile(logPath)
			if bytes.Contains(out, []byte("Press Ctrl-C to stop.")) {
				fmt.Printf("suite: %s ready in %s (%s)\n", o.Name, time.Since(began).Round(10*time.Millisecond), firstLine(out, "serving"))
				return ctx, nil
			}
			select {
			case <-p.Exited():
				return ctx, fmt.Errorf("sim serve (%s) exited while starting (%v):\n%s", o.Name, p.Err(), out)
			case <-time.After(100 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				return ctx, fmt.Errorf("sim serve (%s) not ready after 2m:\n%s", o.Name, out)
			}
		}
	}
	stop = func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		p, ok := ctx.Value(serveKey(o.Name)).(*procs.Process)
		if !ok {
			return ctx, nil
		}
		var err error
		select {
		case <-p.Exited():
			err = fmt.Errorf("sim serve (%s) had exited during the suite (%v)", o.Name, p.Err())
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
func ServeExited(ctx context.Context, name string) error {
	p, ok := ctx.Value(serveKey(name)).(*procs.Process)
	if !ok {
		return errors.New("no sim serve in this suite")
	}
	select {
	case <-p.Exited():
		return fmt.Errorf("sim serve (%s) exited: %v (log: %s)", name, p.Err(), filepath.Join(Workdir(), name+".log"))
	default:
		return nil
	}
}

// denial is how the API server words an RBAC refusal.
// In sim's JSON log its quotes are escaped.
var denial = regexp.MustCompile(`is forbidden: User \\?"[^"\\]*\\?" cannot [a-z]+ resource \\?"[^"\\]*\\?"`)

// Denials returns the RBAC refusals in the log of the serve named name:
// the permissions it lacked.
func Denials(name string) ([]string, error) {
	out, err := os.ReadFile(filepath.Join(Workdir(), name+".log"))
	if err != nil {
		return nil, fmt.Errorf("reading the log of sim serve (%s): %w", name, err)
	}
	seen := map[string]bool{}
	var found []string
	for _, m := range denial.FindAllString(string(out), -1) {
		if !seen[m] {
			seen[m] = true
			found = append(found, m)
		}
	}
	return found, nil
}

func firstLine(out []byte, prefix string) string {
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
