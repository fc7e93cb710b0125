// Package suite holds the environment steps of kueue-sim's e2e suites
// (sigs.k8s.io/e2e-framework env.Funcs for TestMain): a container-free KWOK
// cluster from the cached binaries, its GPU nodes, `sim serve` against it,
// the platform's DataScienceCluster, and the kind path's cluster, Kueue and
// kueue-sim Deployment.
//
// kwokctl keeps its clusters in KWOK_WORKDIR and writes kubeconfigs to
// KUBECONFIG: Kwok sets both to a folder of its own (never the home
// folder), stable across runs so that a cluster left by a killed run is
// deleted by name before the next one starts, and after each suite.
package suite
