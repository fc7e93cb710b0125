package cluster

import (
	"fmt"
	"net"
)

// The webhook server's port is written into the webhook configurations
// when kube-apiserver starts, but the manager binds it only once the CRDs
// and kube-scheduler and kube-controller-manager are up, seconds later.
// Over those seconds kueue-sim holds the port open, so that another
// process on the machine (a parallel test's etcd, kube-apiserver or
// controller picking a free port) cannot take it; it lets go just before
// the manager binds it.

// holdWebhookPort opens a listener on a free port of 127.0.0.1 and keeps
// it until releaseWebhookPort.
func (cp *ControlPlane) holdWebhookPort() (host string, port int, err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", 0, fmt.Errorf("finding a free port for the webhook server: %w", err)
	}
	cp.webhookPort = l
	return "127.0.0.1", l.Addr().(*net.TCPAddr).Port, nil
}

// releaseWebhookPort closes the listener holdWebhookPort opened, if any.
func (cp *ControlPlane) releaseWebhookPort() {
	if cp.webhookPort != nil {
		_ = cp.webhookPort.Close()
		cp.webhookPort = nil
	}
}
