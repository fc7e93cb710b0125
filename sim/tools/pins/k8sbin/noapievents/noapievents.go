// Package noapievents keeps a component's Events out of the API server when
// its kubeconfig asks for it, the way kueue-sim keeps Kueue's in process
// (cluster.WithoutAPIEvents): a replay reads Workload conditions and pod
// status, never Events, and kube-scheduler's and kube-controller-manager's
// were a fifth of the API writes of a replay of Jobs (docs/performance.md,
// "Events kept out of the API server").
//
// It registers a client-go auth-provider plugin. A kubeconfig user that
// names it next to its client certificate,
//
//	users:
//	- name: kueue-sim-kube-scheduler
//	  user:
//	    client-certificate-data: ...
//	    auth-provider:
//	      name: kueue-sim-no-api-events
//
// (Kubeconfig adds the entry) gets every client built from it wrapped in
// a transport that answers the event sinks of client-go's two recorders
// (k8s.io/client-go/tools/record, core/v1 Events; k8s.io/client-go/tools/events,
// events.k8s.io/v1) itself: a create is echoed back as created, and a
// patch of a repeat is answered 404 so that the recorder creates the Event
// anew (both recorders do that when the Event they patch is gone). Every
// other request goes to the API server unchanged, and the component logs
// its Events at its own verbosity as before. Without the entry in the
// kubeconfig the binary is upstream's.
//
// The package builds in two modules: kueue-sim's, where it is tested and
// where sim/cluster calls Kubeconfig, and the pinned module of
// sim/tools/pins/k8sbin, whose kube-scheduler and kube-controller-manager
// mains import it (sim tools install copies it there). So it imports only
// the standard library and client-go.
package noapievents

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Name is the auth-provider name a kubeconfig gives to keep Events out of
// the API server.
const Name = "kueue-sim-no-api-events"

func init() {
	if err := rest.RegisterAuthProviderPlugin(Name, func(string, map[string]string, rest.AuthProviderConfigPersister) (rest.AuthProvider, error) {
		return provider{}, nil
	}); err != nil {
		panic(err)
	}
}

// Kubeconfig names the provider for every user of a kubeconfig, beside its
// client certificate (client-go takes both).
func Kubeconfig(kubeconfig []byte) ([]byte, error) {
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("reading the kubeconfig: %w", err)
	}
	for _, u := range cfg.AuthInfos {
		u.AuthProvider = &clientcmdapi.AuthProviderConfig{Name: Name}
	}
	return clientcmd.Write(*cfg)
}

type provider struct{}

var _ rest.AuthProvider = provider{}

func (provider) WrapTransport(next http.RoundTripper) http.RoundTripper {
	return &sink{next: next}
}

func (provider) Login() error { return nil }

// sink answers Event writes and passes everything else on.
type sink struct{ next http.RoundTripper }

func (s *sink) RoundTrip(req *http.Request) (*http.Response, error) {
	create, ok := eventWrite(req)
	if !ok {
		return s.next.RoundTrip(req)
	}
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	if create {
		// The created Event is the one sent: the recorders read back only
		// what they sent (the name they chose, the count).
		return respond(req, http.StatusCreated, req.Header.Get("Content-Type"), body), nil
	}
	return respond(req, http.StatusNotFound, "application/json",
		[]byte(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"kept out of the API server","reason":"NotFound","code":404}`)), nil
}

// eventWrite tells whether req creates (POST) or patches (PATCH) an Event
// of either API: /api/v1/namespaces/NS/events[/NAME] or
// /apis/events.k8s.io/v1/namespaces/NS/events[/NAME].
func eventWrite(req *http.Request) (create, ok bool) {
	var tail string
	switch p := req.URL.Path; {
	case strings.HasPrefix(p, "/api/v1/namespaces/"):
		tail = strings.TrimPrefix(p, "/api/v1/namespaces/")
	case strings.HasPrefix(p, "/apis/events.k8s.io/v1/namespaces/"):
		tail = strings.TrimPrefix(p, "/apis/events.k8s.io/v1/namespaces/")
	default:
		return false, false
	}
	parts := strings.Split(tail, "/") // NS, events[, NAME]
	switch {
	case req.Method == http.MethodPost && len(parts) == 2 && parts[1] == "events":
		return true, true
	case req.Method == http.MethodPatch && len(parts) == 3 && parts[1] == "events":
		return false, true
	}
	return false, false
}

func respond(req *http.Request, code int, contentType string, body []byte) *http.Response {
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", code, http.StatusText(code)),
		StatusCode:    code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": []string{contentType}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}
