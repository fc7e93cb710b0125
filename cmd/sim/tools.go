package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/tools"
)

func newToolsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Build and find the control-plane binaries (kube-apiserver, etcd, kube-scheduler, kube-controller-manager; kwok)",
		Long: `sim needs kube-apiserver, etcd, kube-scheduler and kube-controller-manager
binaries of the versions it was built with. sim tools install builds them from
source with the Go toolchain (go on PATH) into the binary folder, once:

  ${XDG_CACHE_HOME:-~/.cache}/kueue-sim/k8s-<version>   (KUEUESIM_BIN_DIR overrides it)

If KUBEBUILDER_ASSETS is set, sim uses the binaries there and builds nothing.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newToolsInstallCmd(), newToolsListCmd(), newToolsPathCmd())
	return cmd
}

func newToolsInstallCmd() *cobra.Command {
	var withKwok bool
	cmd := &cobra.Command{
		Use:   "install [TOOL...]",
		Short: "Build the missing control-plane binaries from source into the binary folder",
		Long: `sim tools install builds the tools missing from the binary folder (sim tools
path) from source with the Go toolchain, each at the version this sim pins:
kube-apiserver, kube-scheduler and kube-controller-manager from
k8s.io/kubernetes, and etcd from go.etcd.io/etcd/server/v3, through the Go
module proxy. --kwok adds kwok and kwokctl (sigs.k8s.io/kwok) for the
container-free e2e cluster; TOOL names pick single tools.

The first build takes minutes (about 4 for the Kubernetes binaries and 1 for
etcd on 2 cores); binaries already there are kept. With KUBEBUILDER_ASSETS
set it builds nothing.`,
		Example: `  sim tools install
  sim tools install --kwok
  export KUBEBUILDER_ASSETS=$(sim tools path)`,
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := tools.Select(args, withKwok)
			if err != nil {
				return withExitCode(2, err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return installTools(ctx, cmd.OutOrStdout(), sel)
		},
	}
	cmd.Flags().BoolVar(&withKwok, "kwok", false, "also build kwok and kwokctl, for the container-free e2e cluster")
	return cmd
}

func newToolsListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the binaries sim runs: version, path, and whether they are present",
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
