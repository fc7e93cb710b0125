// Package kueuesetup runs the real Kueue (sigs.k8s.io/kueue) inside a
// controller-runtime manager: its core controllers, scheduler, job
// integrations and webhooks, wired as Kueue's own cmd/kueue does, minus what
// an embedded control plane has no use for (leader election, its own
// certificate management, metrics and visibility servers, MultiKueue and
// provisioning requests).
//
// Kueue keeps process-wide state (feature gates, metrics registration, the
// integration registry), so a process runs at most one Kueue.
package kueuesetup
