// Package importcluster is the e2e suite of `sim import cluster`: a
// scenario replayed on a KWOK cluster and left there, imported with list
// calls only, and replayed again from the import on the embedded control
// plane, must admit alike per ClusterQueue.
package importcluster
