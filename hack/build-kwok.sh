#!/usr/bin/env bash
# Builds kwok and kwokctl (sigs.k8s.io/kwok) for the container-free e2e
# cluster: kwokctl's binary runtime runs the control-plane binaries of
# `make tools` as processes and kwok fakes the nodes and their pods.
#
# They need k8s.io v0.36 and go 1.26, so they are built with `go install
# module@version`, outside kueue-sim's go.mod, into the same cache folder as
# the other binaries. Binaries already present are kept.
set -euo pipefail

KWOK_VERSION=${KWOK_VERSION:-v0.8.0}
here=$(cd "$(dirname "$0")" && pwd)
K8S_VERSION=${K8S_VERSION:-$(sed -n 's/^require k8s.io\/kubernetes v//p' "$here/k8sbin/go.mod")}
cache=${XDG_CACHE_HOME:-$HOME/.cache}
out=${KUEUESIM_BIN_DIR:-$cache/kueue-sim/k8s-v$K8S_VERSION}
mkdir -p "$out"

installed_version() { # the version a cached binary reports, or nothing
	[[ -x "$out/$1" ]] && "$out/$1" --version 2>/dev/null | grep -o 'v[0-9][0-9.]*' | head -n1
}

for b in kwok kwokctl; do
	if [[ "$(installed_version "$b")" == "$KWOK_VERSION" ]]; then
		continue
	fi
	echo ">> building $b $KWOK_VERSION into $out (a few minutes the first time)"
	start=$SECONDS
	# The version ldflags keep `kwokctl --version` and the stage defaults
	# right even for builds of a module replaced locally.
	GOBIN="$out" GOFLAGS=-buildvcs=false go install -trimpath \
		-ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION#v}" \
		"sigs.k8s.io/kwok/cmd/$b@$KWOK_VERSION"
	echo "   done in $((SECONDS - start)) s"
done
echo "kwok and kwokctl $KWOK_VERSION ready in $out"
