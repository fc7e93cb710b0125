package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// release is the kueue-sim release this source is, the newest version
// heading of CHANGELOG.md; TestReleaseIsTheChangelogs keeps them together.
const release = "0.1.0"

// version is the build's version, set at link time by the Makefile
// (-X main.version=..., git describe); "dev" otherwise.
var version = "dev"

// simVersion is the release and the build (simBuild).
func simVersion() string {
	return fmt.Sprintf("%s (build %s)", release, simBuild())
}

// simBuild is the build's version: version, or for a `go install
// ...@v1.2.3` binary the module version Go recorded.
func simBuild() string {
	if version == "dev" {
		if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			return info.Main.Version
		}
	}
	return version
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print kueue-sim's, Kueue's and the Kubernetes binaries' versions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "kueue-sim                %s\n", simVersion())
			fmt.Fprintf(out, "Kueue (in-process)       %s\n", orUnknown(kueuerelease.Compiled()))
			fmt.Fprintf(out, "controller-runtime       %s\n", moduleVersion("sigs.k8s.io/controller-runtime"))
			fmt.Fprintf(out, "Kueue releases           %s\n", kueueReleases())
			bins, err := assets.FindBinaries()
			if err != nil {
				fmt.Fprintf(out, "Kubernetes binaries      %s (not found: run `sim tools install`)\n", assets.KubernetesVersion)
				return nil
			}
			for _, name := range assets.All {
				v, err := bins.Version(name)
				if err != nil {
					v = "error: " + err.Error()
				}
				fmt.Fprintf(out, "%-24s %s\n", name, v)
			}
			fmt.Fprintf(out, "binaries from            %s\n", bins.Dir)
			return nil
		},
	}
}

// moduleVersion reads a dependency's version from the binary's build info.
func moduleVersion(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, d := range info.Deps {
		if d.Path == path {
			if d.Replace != nil {
				return d.Replace.Version + " (replaced)"
			}
			return d.Version
		}
	}
	return "unknown"
}

func orUnknown(v string) string {
	if v == "" {
		return "unknown"
	}
	return v
}

// kueueReleases lists every Kueue release kueue-sim runs, each marked by
// where its sim is: this one, built beside it or in the binary folder, or
// not built yet.
func kueueReleases() string {
	b, err := kueueBuilder(io.Discard, "")
	if err != nil {
		return strings.Join(kueuerelease.Supported, ", ") + " (" + err.Error() + ")"
	}
	var parts []string
	for _, s := range b.StatusAll() {
		switch {
		case s.Self:
			parts = append(parts, s.Release+" (this sim)")
		case s.Present:
			parts = append(parts, s.Release+" (built)")
		default:
			parts = append(parts, s.Release+" (not built: sim tools install kueue@"+s.Release+")")
		}
	}
	return strings.Join(parts, ", ")
}
