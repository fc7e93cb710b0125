package cluster

import (
	"fmt"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// withoutAPIEvents adds assets.NoAPIEventsProvider, the kubeconfig
// auth-provider that kueue-sim's builds of kube-scheduler and
// kube-controller-manager register (sim/tools/pins/k8sbin/noapievents),
// to every user of a kubeconfig: a component whose user names it keeps
// its Events out of the API server. Its recorders' writes are answered by
// the client itself; everything else reaches the API server with the
// user's client certificate as before.
func withoutAPIEvents(kubeconfig []byte) ([]byte, error) {
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("reading the kubeconfig: %w", err)
	}
	for _, u := range cfg.AuthInfos {
		u.AuthProvider = &clientcmdapi.AuthProviderConfig{Name: assets.NoAPIEventsProvider}
	}
	return clientcmd.Write(*cfg)
}
