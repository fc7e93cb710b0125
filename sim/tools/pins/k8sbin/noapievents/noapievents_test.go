package noapievents

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// server is an API server stand-in that records what reaches it.
type server struct {
	mu    sync.Mutex
	paths []string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.paths = append(s.paths, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(&corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}})
}

func (s *server) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// Clients whose kubeconfig names the provider get their Event creates back
// as created and their patches of repeats as gone, in JSON and in
// protobuf, through both Event APIs, and the API server sees none of it;
// every other request reaches it.
func TestClientsAnswerTheirOwnEventWrites(t *testing.T) {
	for _, contentType := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
		t.Run(contentType, func(t *testing.T) {
			srv := &server{}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			cs, err := kubernetes.NewForConfig(&rest.Config{
				Host:          ts.URL,
				ContentConfig: rest.ContentConfig{ContentType: contentType},
				AuthProvider:  &clientcmdapi.AuthProviderConfig{Name: Name},
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			core := &corev1.Event{
				ObjectMeta:     metav1.ObjectMeta{Name: "job.1", Namespace: "ns"},
				InvolvedObject: corev1.ObjectReference{Kind: "Job", Namespace: "ns", Name: "job"},
				Reason:         "Suspended", Message: "Job suspended", Count: 1,
				Source: corev1.EventSource{Component: "job-controller"},
			}
			// The sink client-go's record package writes through.
			sink := &typedcorev1.EventSinkImpl{Interface: cs.CoreV1().Events("")}
			got, err := sink.Create(core)
			if err != nil {
				t.Fatalf("creating a core/v1 Event: %v", err)
			}
			if got.Name != core.Name || got.Reason != core.Reason || got.Count != 1 || got.Source.Component != "job-controller" {
				t.Errorf("created core/v1 Event = %+v, want the one sent", got)
			}
			if _, err := sink.Patch(core, []byte(`{"count":2}`)); !apierrors.IsNotFound(err) {
				t.Errorf("patching a core/v1 Event: %v, want NotFound (the recorder then creates it)", err)
			}

			ev := &eventsv1.Event{
				ObjectMeta: metav1.ObjectMeta{Name: "pod.1", Namespace: "ns"},
				Regarding:  corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "pod"},
				Reason:     "Scheduled", Action: "Binding", ReportingController: "default-scheduler",
				ReportingInstance: "default-scheduler-x", Type: corev1.EventTypeNormal,
			}
			gotEv, err := cs.EventsV1().Events("ns").Create(ctx, ev, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("creating an events.k8s.io/v1 Event: %v", err)
			}
			if gotEv.Name != ev.Name || gotEv.Reason != "Scheduled" || gotEv.ReportingController != "default-scheduler" {
				t.Errorf("created events.k8s.io/v1 Event = %+v, want the one sent", gotEv)
			}
			if _, err := cs.EventsV1().Events("ns").Patch(ctx, ev.Name, types.StrategicMergePatchType,
				[]byte(`{"series":{"count":2}}`), metav1.PatchOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("patching an events.k8s.io/v1 Event: %v, want NotFound", err)
			}

			if _, err := cs.CoreV1().Pods("ns").List(ctx, metav1.ListOptions{}); err != nil {
				t.Fatalf("listing pods: %v", err)
			}
			// Reads of Events are not writes: they reach the server (whose
			// PodList answer does not matter here).
			_, _ = cs.CoreV1().Events("ns").List(ctx, metav1.ListOptions{})
			want := []string{"GET /api/v1/namespaces/ns/pods", "GET /api/v1/namespaces/ns/events"}
			if got := srv.seen(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
				t.Errorf("the API server saw %q, want only %q", got, want)
			}
		})
	}
}

func TestEventWrite(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		create, ok   bool
	}{
		{http.MethodPost, "/api/v1/namespaces/ns/events", true, true},
		{http.MethodPost, "/apis/events.k8s.io/v1/namespaces/ns/events", true, true},
		{http.MethodPatch, "/api/v1/namespaces/ns/events/e.1", false, true},
		{http.MethodPatch, "/apis/events.k8s.io/v1/namespaces/ns/events/e.1", false, true},
		{http.MethodGet, "/api/v1/namespaces/ns/events", false, false},
		{http.MethodPut, "/api/v1/namespaces/ns/events/e.1", false, false},
		{http.MethodDelete, "/api/v1/namespaces/ns/events/e.1", false, false},
		{http.MethodPost, "/api/v1/namespaces/ns/pods", false, false},
		{http.MethodPost, "/api/v1/namespaces/events", false, false},
		{http.MethodPatch, "/api/v1/namespaces/ns/pods/events", false, false},
		{http.MethodPost, "/apis/events.k8s.io/v1beta1/namespaces/ns/events", false, false},
	} {
		req := httptest.NewRequest(tc.method, tc.path, nil)
		if create, ok := eventWrite(req); create != tc.create || ok != tc.ok {
			t.Errorf("eventWrite(%s %s) = %v, %v, want %v, %v", tc.method, tc.path, create, ok, tc.create, tc.ok)
		}
	}
}

// The kubeconfig keeps its client certificate and validates with the
// provider beside it (client-go counts the two as one method).
func TestKubeconfigNamesTheProvider(t *testing.T) {
	in := clientcmdapi.NewConfig()
	in.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://127.0.0.1:6443", CertificateAuthorityData: []byte("ca")}
	in.AuthInfos["u"] = &clientcmdapi.AuthInfo{ClientCertificateData: []byte("cert"), ClientKeyData: []byte("key")}
	in.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	in.CurrentContext = "ctx"
	data, err := clientcmd.Write(*in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Kubeconfig(data)
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
	if u.AuthProvider == nil || u.AuthProvider.Name != Name {
		t.Errorf("auth-provider = %+v, want %s", u.AuthProvider, Name)
	}
	if string(u.ClientCertificateData) != "cert" || string(u.ClientKeyData) != "key" {
		t.Errorf("the client certificate was lost: %+v", u)
	}
	rc, err := clientcmd.RESTConfigFromKubeConfig(out)
	if err != nil {
		t.Fatal(err)
	}
	if rc.AuthProvider == nil || rc.AuthProvider.Name != Name {
		t.Errorf("the rest config's auth-provider = %+v, want %s", rc.AuthProvider, Name)
	}
}

func TestKubeconfigRejectsGarbage(t *testing.T) {
	if _, err := Kubeconfig([]byte("users: [")); err == nil {
		t.Error("Kubeconfig accepted a broken document")
	}
}
