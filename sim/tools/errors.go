package tools

import (
	"errors"
	"fmt"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// NoGoError says that tools must be built and no go command is on PATH.
type NoGoError struct {
	Tools []string // the tools that are missing
	Err   error    // from looking go up
}

func (e *NoGoError) Error() string {
	return fmt.Sprintf("building %s from source needs the Go toolchain, and there is no `go` on PATH: "+
		"install Go %s or newer (https://go.dev/dl/ or your package manager), put its bin folder on PATH and run `sim tools install` again, "+
		"or set %s to a folder holding kube-apiserver, etcd, kube-scheduler and kube-controller-manager",
		joinNames(e.Tools), GoVersion(), assets.EnvAssets)
}

func (e *NoGoError) Unwrap() error { return e.Err }

// IsNoGo tells whether err is a *NoGoError.
func IsNoGo(err error) bool {
	var e *NoGoError
	return errors.As(err, &e)
}
