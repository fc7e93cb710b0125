//go:build tools

// Package controllergen pins controller-gen, which hack/generate.sh builds
// to regenerate deepcopy code and CRDs from the types under api/.
package controllergen

import _ "sigs.k8s.io/controller-tools/cmd/controller-gen"
