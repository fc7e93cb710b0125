package tools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kueue-sim/kueue-sim/sim/assets"
	"github.com/kueue-sim/kueue-sim/sim/kwok"
)

// Set groups the tools by what needs them.
type Set string

const (
	// ControlPlane tools are what every embedded control plane runs.
	ControlPlane Set = "control plane"
	// Kwok tools make the container-free e2e cluster (sim tools install --kwok).
	Kwok Set = "kwok"
)

// Tool is one binary kueue-sim builds from source.
type Tool struct {
	Name    string // its file name in the binary folder
	Version string // the pinned version, e.g. v1.35.4
	Package string // the import path of its main package
	Set     Set

	// pin is the folder under pins/ whose module builds it; empty: go
	// install Package@Version, in the tool's own module.
	pin     string
	ldflags string
	env     []string // added to go's environment
	// build is what the tool's --version must report after the version
	// ("+kueue-sim.2"): a binary without it is another build and is
	// rebuilt.
	build string
}

// kubernetesLDFlags are the version ldflags of k8s.io/component-base that a
// release build sets: without them the binaries say v0.0.0-master. version
// may carry build metadata (v1.35.4+kueue-sim.2).
func kubernetesLDFlags(version string) string {
	const ver = "k8s.io/component-base/version"
	major, rest, _ := strings.Cut(strings.TrimPrefix(version, "v"), ".")
	minor, _, _ := strings.Cut(rest, ".")
	return fmt.Sprintf("-s -w -X %s.gitVersion=%s -X %s.gitMajor=%s -X %s.gitMinor=%s -X %s.gitTreeState=clean",
		ver, version, ver, major, ver, minor, ver)
}

var (
	kubernetesVersion = mustPinnedVersion(pinKubernetes, "k8s.io/kubernetes")
	etcdVersion       = mustPinnedVersion(pinEtcd, "go.etcd.io/etcd/server/v3")
)

// All returns every tool, control plane first, in start order.
func All() []Tool {
	k8s := func(name string) Tool {
		t := Tool{Name: name, Version: kubernetesVersion, Package: "k8s.io/kubernetes/cmd/" + name, Set: ControlPlane,
			pin: pinKubernetes, ldflags: kubernetesLDFlags(kubernetesVersion)}
		if slices.Contains(assets.Built, name) {
			// Built from kueue-sim's main (see pins/k8sbin), marked in its
			// version.
			t.Package, t.build = "./"+name, "+"+assets.Build
			t.ldflags = kubernetesLDFlags(kubernetesVersion + t.build)
		}
		return t
	}
	kw := func(name string) Tool {
		// The version ldflags keep `kwokctl --version` and the stage
		// defaults right even for builds of a module replaced locally.
		return Tool{Name: name, Version: kwok.Version, Package: "sigs.k8s.io/kwok/cmd/" + name, Set: Kwok,
			ldflags: "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=" + strings.TrimPrefix(kwok.Version, "v"),
			env:     []string{"GOFLAGS=-buildvcs=false"}}
	}
	return []Tool{
		{Name: assets.Etcd, Version: etcdVersion, Package: "go.etcd.io/etcd/server/v3", Set: ControlPlane,
			pin: pinEtcd, ldflags: "-s -w"},
		k8s(assets.APIServer), k8s(assets.Scheduler), k8s(assets.ControllerManager),
		kw(kwok.Kwok), kw(kwok.Kwokctl),
	}
}

// Select returns the named tools, or every control-plane tool when names is
// empty; withKwok adds kwok and kwokctl.
func Select(names []string, withKwok bool) ([]Tool, error) {
	all := All()
	var out []Tool
	for _, t := range all {
		switch {
		case len(names) > 0 && slices.Contains(names, t.Name),
			len(names) == 0 && t.Set == ControlPlane,
			withKwok && t.Set == Kwok:
			out = append(out, t)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(all, func(t Tool) bool { return t.Name == n }) {
			known := make([]string, len(all))
			for i, t := range all {
				known[i] = t.Name
			}
			return nil, fmt.Errorf("no tool %q: the tools are %s", n, strings.Join(known, ", "))
		}
	}
	return out, nil
}
