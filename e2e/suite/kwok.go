package suite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/envfuncs"
	kwokprovider "sigs.k8s.io/e2e-framework/support/kwok"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/kwok"
)

// EnvWorkdir overrides the folder kwokctl keeps clusters in.
const EnvWorkdir = "KUEUESIM_E2E_WORKDIR"

// Workdir is the e2e suites' folder: $KUEUESIM_E2E_WORKDIR, or
// <temp>/kueue-sim-e2e-<uid>.
func Workdir() string {
	if d := os.Getenv(EnvWorkdir); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("kueue-sim-e2e-%d", os.Getuid()))
}

// Kwok returns the steps that create and destroy a KWOK cluster named name
// with kwokctl's binary runtime, the binaries of `make tools` and `make
// kwok`, and sim/kwok's stages. Create deletes a cluster of that name left
// by an earlier run first; both report how long they took. Suites of
// concurrent `make e2e` runs take turns (a lock in the e2e folder), since
// each deletes clusters by name.
func Kwok(name string) (create, destroy env.Func) {
	var kwokctl string
	var lock *os.File
	create = func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		b, err := kwok.FindBinaries()
		if err != nil {
			return ctx, err
		}
		kwokctl = b.Path(kwok.Kwokctl)
		dir := filepath.Join(Workdir(), "kwok")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return ctx, fmt.Errorf("making the kwok folder: %w", err)
		}
		if lock, err = takeTurn(ctx, filepath.Join(Workdir(), "lock")); err != nil {
			return ctx, err
		}
		for k, v := range map[string]string{"KWOK_WORKDIR": dir, "KUBECONFIG": filepath.Join(dir, "kubeconfig")} {
			if err := os.Setenv(k, v); err != nil {
				return ctx, fmt.Errorf("setting %s: %w", k, err)
			}
		}
		deleteByName(ctx, kwokctl, name)
		config := filepath.Join(dir, name+".yaml")
		if err := kwok.WriteConfig(config, b); err != nil {
			return ctx, err
		}
		began := time.Now()
		p := kwokprovider.NewProvider().WithOpts(kwokprovider.WithPath(kwokctl))
		ctx, err = envfuncs.CreateClusterWithConfig(p, name, config)(ctx, cfg)
		if err != nil {
			return ctx, fmt.Errorf("creating KWOK cluster %s (logs in %s): %w", name, filepath.Join(dir, "clusters", name, "logs"), err)
		}
		fmt.Printf("suite: KWOK cluster %s created in %s\n", name, time.Since(began).Round(10*time.Millisecond))
		return ctx, nil
	}
	destroy = func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		defer func() {
			if lock != nil {
				lock.Close() // releases the lock
			}
		}()
		began := time.Now()
		ctx, err := envfuncs.DestroyCluster(name)(ctx, cfg)
		if err != nil {
			fmt.Printf("suite: deleting KWOK cluster %s: %v\n", name, err)
			if kwokctl != "" {
				deleteByName(ctx, kwokctl, name)
			}
			return ctx, err
		}
		fmt.Printf("suite: KWOK cluster %s deleted in %s\n", name, time.Since(began).Round(10*time.Millisecond))
		return ctx, nil
	}
	return create, destroy
}

// takeTurn waits (up to 30 minutes) for an exclusive lock on path; closing
// the file, or the process ending, releases it.
func takeTurn(ctx context.Context, path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the e2e lock: %w", err)
	}
	said := false
	for deadline := time.Now().Add(30 * time.Minute); ; {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("taking the e2e lock %s (another make e2e runs?): %w", path, err)
		}
		if !said {
			fmt.Printf("suite: waiting for another e2e run to finish (lock %s)\n", path)
			said = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// deleteByName deletes a cluster left by a killed run; there is usually
// none, so errors are not reported.
func deleteByName(ctx context.Context, kwokctl, name string) {
	_ = exec.CommandContext(ctx, kwokctl, "delete", "cluster", "--name", name).Run()
}

// GPUPools are the e2e clusters' GPU nodes: two of each model, 4 GPUs each.
func GPUPools(models [2]string) []nodes.Pool {
	var pools []nodes.Pool
	for i, model := range models {
		pools = append(pools, nodes.Pool{
			Name: fmt.Sprintf("gpu-%c", 'a'+i), Count: 2,
			Labels:      map[string]string{nodes.GPUProductLabel: model},
			Allocatable: resources("32", "256Gi", "4"),
		})
	}
	return pools
}

// KwokNodes creates the pools as KWOK nodes and waits until they are Ready.
func KwokNodes(pools ...nodes.Pool) env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		c, err := Client(cfg)
		if err != nil {
			return ctx, err
		}
		if _, err := kwok.CreateNodes(ctx, c, "", pools...); err != nil {
			return ctx, err
		}
		return ctx, nil
	}
}
