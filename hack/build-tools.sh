#!/usr/bin/env bash
# Builds the control-plane binaries kueue-sim runs: kube-apiserver,
# kube-scheduler and kube-controller-manager from k8s.io/kubernetes, and etcd
# from go.etcd.io/etcd/server/v3, all from source through the Go module proxy.
#
# Output: $KUEUESIM_BIN_DIR (default: <user cache>/kueue-sim/k8s-v$K8S_VERSION).
# Binaries already present are kept; KUBEBUILDER_ASSETS, when set, wins and
# nothing is built.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
K8S_VERSION=${K8S_VERSION:-$(sed -n 's/^require k8s.io\/kubernetes v//p' "$here/k8sbin/go.mod")}
ETCD_VERSION=${ETCD_VERSION:-$(sed -n 's/^require go.etcd.io\/etcd\/server\/v3 v//p' "$here/etcdbin/go.mod")}

if [[ -n "${KUBEBUILDER_ASSETS:-}" ]]; then
	echo "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS is set: using the binaries there, building nothing."
	exit 0
fi

cache=${XDG_CACHE_HOME:-$HOME/.cache}
out=${KUEUESIM_BIN_DIR:-$cache/kueue-sim/k8s-v$K8S_VERSION}
mkdir -p "$out"

missing=()
for b in kube-apiserver kube-scheduler kube-controller-manager; do
	[[ -x "$out/$b" ]] || missing+=("k8s.io/kubernetes/cmd/$b")
done

if ((${#missing[@]})); then
	echo ">> building ${missing[*]##*/} v$K8S_VERSION from source into $out"
	echo "   (the first build takes 8-10 minutes on 2 cores; later runs reuse it)"
	ver="k8s.io/component-base/version"
	ldflags="-s -w -X $ver.gitVersion=v$K8S_VERSION -X $ver.gitMajor=${K8S_VERSION%%.*}"
	minor=${K8S_VERSION#*.}; minor=${minor%%.*}
	ldflags+=" -X $ver.gitMinor=$minor -X $ver.gitTreeState=clean"
	start=$SECONDS
	(cd "$here/k8sbin" && go build -trimpath -ldflags "$ldflags" -o "$out/" "${missing[@]}")
	echo "   done in $((SECONDS - start)) s"
fi

if [[ ! -x "$out/etcd" ]]; then
	echo ">> building etcd v$ETCD_VERSION from source into $out (about a minute)"
	start=$SECONDS
	(cd "$here/etcdbin" && go build -trimpath -ldflags "-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3)
	echo "   done in $((SECONDS - start)) s"
fi

echo "control-plane binaries ready in $out"
