package harness

import (
	"errors"
	"fmt"
)

// InvalidError says Run cannot make a run of what it was given: options
// meant for the other target (a *ConflictError), a scenario the embedded
// control plane cannot be configured for, or a kubeconfig that cannot be
// read. Nothing was started. Its message is Err's.
type InvalidError struct{ Err error }

func (e *InvalidError) Error() string { return e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

// IsInvalid tells whether err is an *InvalidError (bad input, exit code 2
// in `sim run`).
func IsInvalid(err error) bool {
	var e *InvalidError
	return errors.As(err, &e)
}

// ConflictError says an option was given for the other target: Option (its
// name in this package, e.g. "WithKwokNodes") works only on an existing
// cluster (WithKubeconfig) or, when Embedded, only on the embedded control
// plane.
type ConflictError struct {
	Option   string
	Embedded bool
}

func (e *ConflictError) Error() string {
	if e.Embedded {
		return e.Option + " works only on the embedded control plane, not with WithKubeconfig"
	}
	return e.Option + " works only with WithKubeconfig (a replay on an existing cluster)"
}

// TargetFailedError says the control plane (or Kueue and the platform
// connected to an existing cluster) ended during the replay, which was
// cancelled for it. Err is what the control plane reported.
type TargetFailedError struct{ Err error }

func (e *TargetFailedError) Error() string { return fmt.Sprintf("control plane failed: %v", e.Err) }
func (e *TargetFailedError) Unwrap() error { return e.Err }
