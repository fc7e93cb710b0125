#!/usr/bin/env bash
# Regenerates what controller-gen derives from the types under api/:
# zz_generated.deepcopy.go in each API package, and the CRDs in
# config/crd/bases (always installed) and config/crd/optional (the Red Hat
# build of Kueue operator's Kueue CRD, installed unless the control plane is
# started without the operator).
#
# controller-gen is pinned by hack/controllergen/go.mod and built into bin/.
set -euo pipefail
cd "$(dirname "$0")/.."

gen=bin/controller-gen
version=$(sed -n 's/^require sigs.k8s.io\/controller-tools v//p' hack/controllergen/go.mod)
if [[ ! -x "$gen" ]] || ! "$gen" --version | grep -q "v$version\$"; then
	echo ">> building controller-gen v$version into bin/"
	(cd hack/controllergen && go build -o ../../bin/controller-gen sigs.k8s.io/controller-tools/cmd/controller-gen)
fi

"$gen" object paths=./api/...
"$gen" crd \
	paths=./api/datasciencecluster/... \
	paths=./api/opendatahub/... \
	paths=./api/infrastructure/... \
	paths=./api/dashboard/... \
	output:crd:dir=config/crd/bases
"$gen" crd paths=./api/kueueoperator/... output:crd:dir=config/crd/optional
echo "generated deepcopy code and CRDs"
