// Package kwok is kueue-sim's e2e suite on a container-free cluster: a
// kwokctl cluster of the cached control-plane binaries with KWOK GPU nodes
// of two models, and `sim serve` running Kueue, the platform's reconciler
// and webhooks and the fake operators against it. It runs the features of
// package features. The tests carry the build tag e2e: run them with `make
// e2e` (or go test -tags e2e ./e2e/kwok), not with plain `go test ./...`.
package kwok
