package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/tools"
)

func newToolsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Build and find the control-plane binaries (kube-apiserver, etcd, kube-scheduler, kube-controller-manager; kwok) and the sims of other Kueue releases",
		Long: `sim needs kube-apiserver, etcd, kube-scheduler and kube-controller-manager
binaries of the versions it was built with. sim tools install builds them from
source with the Go toolchain (go on PATH) into the binary folder, once:

  ${XDG_CACHE_HOME:-~/.cache}/kueue-sim/k8s-<version>   (KUEUESIM_BIN_DIR overrides it)

If KUBEBUILDER_ASSETS is set, sim uses the binaries there and builds nothing.

One sim holds one Kueue release; sim tools install kueue@RELEASE builds the
sim of another, sim-kueue-<release>, into the binary folder (whatever
KUBEBUILDER_ASSETS says), where sim run --kueue finds it.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newToolsInstallCmd(), newToolsListCmd(), newToolsPathCmd())
	return cmd
}

func newToolsInstallCmd() *cobra.Command {
	var withKwok bool
	var source string
	cmd := &cobra.Command{
		Use:   "install [TOOL...] [kueue@RELEASE...]",
		Short: "Build the missing control-plane binaries, or the sims of other Kueue releases, from source into the binary folder",
		Long: `sim tools install builds the tools missing from the binary folder (sim tools
path) from source with the Go toolchain, each at the version this sim pins:
kube-apiserver, kube-scheduler and kube-controller-manager from
k8s.io/kubernetes, and etcd from go.etcd.io/etcd/server/v3, through the Go
module proxy. --kwok adds kwok and kwokctl (sigs.k8s.io/kwok) for the
container-free e2e cluster; TOOL names pick single tools.

The first build takes minutes (about 4 for the Kubernetes binaries and 1 for
etcd on 2 cores); binaries already there are kept. With KUBEBUILDER_ASSETS
set it builds none of them.

kueue@RELEASE (a release, kueue@v0.19.2, or a minor, kueue@v0.19, for its
newest supported release) builds the sim of that Kueue release as make
kueue-releases does (go build -modfile=hack/kueue/<release>.mod -tags
kueue_v0_<minor> ./cmd/sim), Kueue and its libraries through the Go module
proxy, into the binary folder as sim-kueue-<release>, where sim run --kueue
finds it (with kueue@ arguments alone, no control-plane binary is built).
It builds in the kueue-sim source tree of --source (KUEUESIM_SOURCE), else
the one this sim was built from (a clone, or the module cache go install
left), else the one holding the current folder. The sim of the release this
sim holds is this sim; one already beside it or in the binary folder is
kept.`,
		Example: `  sim tools install
  sim tools install --kwok
  sim tools install kueue@v0.19.2 kueue@v0.16
  export KUBEBUILDER_ASSETS=$(sim tools path)`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var names, releases []string
			for _, a := range args {
				if r, ok := strings.CutPrefix(a, "kueue@"); ok {
					releases = append(releases, r)
				} else {
					names = append(names, a)
				}
			}
			var sel []tools.Tool
			if len(names) > 0 || withKwok || len(releases) == 0 {
				var err error
				if sel, err = tools.Select(names, withKwok); err != nil {
					return withExitCode(2, fmt.Errorf("%w; kueue@RELEASE builds the sim of a Kueue release (kueue@v0.16.2)", err))
				}
			}
			var b *tools.KueueBuilder
			if len(releases) > 0 {
				var err error
				if b, err = kueueBuilder(cmd.OutOrStdout(), source); err != nil {
					return err
				}
				for _, r := range releases {
					if _, err := b.Status(r); err != nil {
						return withExitCode(2, err)
					}
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if len(sel) > 0 {
				if err := installTools(ctx, cmd.OutOrStdout(), sel); err != nil {
					return err
				}
			}
			for _, r := range releases {
				if _, err := b.Install(ctx, r); err != nil {
					return kueueBuildError(err)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&withKwok, "kwok", false, "also build kwok and kwokctl, for the container-free e2e cluster")
	cmd.Flags().StringVar(&source, "source", "", "the kueue-sim source tree kueue@RELEASE builds in (default: the one this sim was built from, else the one holding the current folder)")
	return cmd
}

func newToolsListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the binaries sim runs, and the sim of every Kueue release: version, path, and whether they are present",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := tools.Default()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			from := assets.FromCache
			if in.External() {
				from = assets.EnvAssets
			}
			fmt.Fprintf(out, "binary folder %s (%s)\n", in.Dir(), from)
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TOOL\tVERSION\tSTATUS\tPATH")
			for _, s := range in.Status(cmd.Context(), tools.All()) {
				status := "present"
				if !s.Present {
					status = "missing"
					if s.Note != "" {
						status += " (" + s.Note + ")"
					}
					if s.Set == tools.Kwok {
						status += ": sim tools install --kwok"
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Version, status, s.Path)
			}
			b, err := kueueBuilder(io.Discard, "")
			if err != nil {
				return err
			}
			for _, s := range b.StatusAll() {
				name, status := filepath.Base(s.Path), "present"
				switch {
				case s.Self:
					status = "present (this sim)"
				case !s.Present:
					status = "missing: sim tools install kueue@" + s.Release
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, s.Release, status, s.Path)
			}
			return tw.Flush()
		},
	}
}

func newToolsPathCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "path",
		Short:   "Print the binary folder",
		Example: `  export KUBEBUILDER_ASSETS=$(sim tools path)`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := tools.Default()
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), in.Dir())
			return nil
		},
	}
}

// installTools builds the selected tools missing from the binary folder.
func installTools(ctx context.Context, out io.Writer, sel []tools.Tool) error {
	in, err := tools.Default(tools.WithOutput(out))
	if err != nil {
		return err
	}
	if err := in.Install(ctx, sel); err != nil {
		return fmt.Errorf("installing the control-plane binaries: %w", err)
	}
	return nil
}

// kueueBuilderOptions are added to every KueueBuilder's options (tests
// give a fake go).
var kueueBuilderOptions []tools.Option

// kueueBuilder builds the sims of other Kueue releases into the binary
// folder, from the source tree source ("": KUEUESIM_SOURCE or found), with
// this sim's build version, writing its progress to out.
func kueueBuilder(out io.Writer, source string) (*tools.KueueBuilder, error) {
	opts := []tools.Option{tools.WithOutput(out), tools.WithSource(source)}
	if v := simBuild(); v != "dev" {
		opts = append(opts, tools.WithSimVersion(v))
	}
	return tools.DefaultKueueBuilder(append(opts, kueueBuilderOptions...)...)
}

// kueueBuildError gives a KueueBuilder's bad-input errors (an unsupported
// release, a source tree that is none) exit code 2.
func kueueBuildError(err error) error {
	if errors.Is(err, assets.ErrUnsupportedKueue) || errors.Is(err, tools.ErrSource) {
		return withExitCode(2, err)
	}
	return err
}

const installToolsUsage = "first build the control-plane binaries missing from the binary folder from source (sim tools install; minutes the first time, needs go on PATH)"

// installControlPlaneTools is --install-tools of sim up (sim run's is
// harness.WithInstallTools).
func installControlPlaneTools(ctx context.Context, out io.Writer) error {
	sel, err := tools.Select(nil, false)
	if err != nil {
		return err
	}
	return installTools(ctx, out, sel)
}
