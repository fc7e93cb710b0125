// Package scenarios is the scenario schema (kueue-sim/v1alpha1) and its
// loader: strict decoding (unknown fields are errors), then defaults, then
// validation of everything at once, each error naming the file, the line, the
// field path and the fix — the order Kueue's own configuration loader uses.
//
// The bundled scenarios (*.yaml in this folder) are examples and, with their
// expectations, part of the test suite.
package scenarios
