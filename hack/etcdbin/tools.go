//go:build tools

// Package etcdbin pins the etcd server that hack/build-tools.sh builds.
package etcdbin

import _ "go.etcd.io/etcd/server/v3"
