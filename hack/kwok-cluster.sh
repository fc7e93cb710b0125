#!/usr/bin/env bash
# Starts or deletes a container-free cluster for trying kueue-sim against a
# "real" cluster by hand: kwokctl's binary runtime with the binaries of
# `make tools` and `make kwok` (bin/sim tools install --kwok), and sim/kwok's
# stages (pods run until told to end). The e2e suites make theirs in Go
# (sim/kwok, e2e/suite).
#
#   hack/kwok-cluster.sh up      # prints the kubeconfig to use
#   hack/kwok-cluster.sh down
#
# kwokctl's files and kubeconfig stay in $KUEUESIM_KWOK_DIR (default
# <temp>/kueue-sim-kwok-<uid>), never in the home folder.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
sim=$here/../bin/sim
[[ -x "$sim" ]] || { echo "$sim is missing: run make build" >&2; exit 1; }
K8S_VERSION=$(sed -n 's/^require k8s.io\/kubernetes v//p' "$here/../sim/tools/pins/k8sbin/go.mod.txt")
bin=$("$sim" tools path)
name=${KUEUESIM_KWOK_NAME:-kueue-sim}
dir=${KUEUESIM_KWOK_DIR:-${TMPDIR:-/tmp}/kueue-sim-kwok-$(id -u)}
export KWOK_WORKDIR=$dir KUBECONFIG=$dir/kubeconfig KWOK_KUBE_VERSION=v$K8S_VERSION
mkdir -p "$dir"

for b in kube-apiserver kube-controller-manager kube-scheduler etcd kwok kwokctl; do
	[[ -x "$bin/$b" ]] || { echo "$bin/$b is missing: run make tools kwok (bin/sim tools install --kwok)" >&2; exit 1; }
done

case "${1:-}" in
up)
	"$bin/kwokctl" delete cluster --name "$name" >/dev/null 2>&1 || true
	"$bin/kwokctl" create cluster --name "$name" --wait 1m \
		--runtime binary \
		--kube-apiserver-binary "$bin/kube-apiserver" \
		--kube-controller-manager-binary "$bin/kube-controller-manager" \
		--kube-scheduler-binary "$bin/kube-scheduler" \
		--etcd-binary "$bin/etcd" --kwok-controller-binary "$bin/kwok" \
		--config "$here/../sim/kwok/stages.yaml"
	"$bin/kwokctl" get kubeconfig --name "$name" >"$dir/$name.kubeconfig"
	echo
	echo "cluster $name is up (no nodes yet). Use it with:"
	echo "  bin/sim serve --kubeconfig $dir/$name.kubeconfig"
	echo "  bin/sim run --kubeconfig $dir/$name.kubeconfig --kwok-nodes scenarios/quickstart.yaml"
	echo "Delete it with: hack/kwok-cluster.sh down"
	;;
down)
	"$bin/kwokctl" delete cluster --name "$name"
	rm -f "$dir/$name.kubeconfig"
	;;
*)
	echo "usage: $0 up|down" >&2
	exit 2
	;;
esac
