// Package yamlcheck holds what the scenario loader and the manifest loader
// share to report problems the way a user fixes them: the line of a field
// path in the YAML source, and a strict type check of a decoded document
// against the Go type it is meant for, every unknown field and every value
// of the wrong type at once, each with its full path.
package yamlcheck
