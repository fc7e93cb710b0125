#!/usr/bin/env bash
# Copies the CRDs and webhook manifests of kueue-sim's dependencies out of the
# Go module cache into config/*/third_party (gitignored), as Kueue's own
# Makefile does. The versions are the ones go.mod pins, so they always agree
# with the Go code that serves them. `sim` embeds these files at build time.
set -euo pipefail
cd "$(dirname "$0")/.."

moddir() { go list -m -f '{{.Dir}}' "$1"; }
kueue=$(moddir sigs.k8s.io/kueue)
training=$(moddir github.com/kubeflow/training-operator)
kuberay=$(moddir github.com/ray-project/kuberay/ray-operator)
if [[ -z "$kueue" || -z "$training" || -z "$kuberay" ]]; then
	go mod download sigs.k8s.io/kueue github.com/kubeflow/training-operator github.com/ray-project/kuberay/ray-operator
	kueue=$(moddir sigs.k8s.io/kueue)
	training=$(moddir github.com/kubeflow/training-operator)
	kuberay=$(moddir github.com/ray-project/kuberay/ray-operator)
fi

crd=config/crd/third_party
wh=config/webhook/third_party
rm -f "$crd"/*.yaml "$wh"/*.yaml
install -m 0644 "$kueue"/config/components/crd/bases/*.yaml "$crd/"
install -m 0644 "$training"/manifests/base/crds/kubeflow.org_pytorchjobs.yaml "$crd/"
install -m 0644 "$kuberay"/config/crd/bases/ray.io_rayjobs.yaml "$kuberay"/config/crd/bases/ray.io_rayclusters.yaml "$crd/"
install -m 0644 "$kueue"/config/components/webhook/manifests.yaml "$wh/kueue-webhooks.yaml"
echo "copied $(ls "$crd"/*.yaml | wc -l) CRDs and Kueue's webhook manifests into config/"
