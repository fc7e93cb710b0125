package cluster

import (
	"testing"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// The kubeconfig keeps its client certificate and validates with the
// auth-provider beside it (client-go counts the two as one method).
func TestWithoutAPIEventsNamesTheProvider(t *testing.T) {
	in := clientcmdapi.NewConfig()
	in.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://127.0.0.1:6443", CertificateAuthorityData: []byte("ca")}
	in.AuthInfos["u"] = &clientcmdapi.AuthInfo{ClientCertificateData: []byte("cert"), ClientKeyData: []byte("key")}
	in.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	in.CurrentContext = "ctx"
	data, err := clientcmd.Write(*in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := withoutAPIEvents(data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := clientcmd.Validate(*cfg); err != nil {
		t.Errorf("the kubeconfig does not validate: %v", err)
	}
	u := cfg.AuthInfos["u"]
	if u.AuthProvider == nil || u.AuthProvider.Name != assets.NoAPIEventsProvider {
		t.Errorf("auth-provider = %+v, want %s", u.AuthProvider, assets.NoAPIEventsProvider)
	}
	if string(u.ClientCertificateData) != "cert" || string(u.ClientKeyData) != "key" {
		t.Errorf("the client certificate was lost: %+v", u)
	}
}
