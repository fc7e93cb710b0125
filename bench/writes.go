package bench

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// writeVerbs are the verbs of apiserver_request_total that write.
var writeVerbs = []string{`verb="POST"`, `verb="PUT"`, `verb="PATCH"`, `verb="DELETE"`, `verb="APPLY"`, `verb="DELETECOLLECTION"`}

// apiMetrics reads kube-apiserver's metrics, in Prometheus' text format.
func apiMetrics(ctx context.Context, cfg *rest.Config) ([]byte, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("reading kube-apiserver's metrics: %w", err)
	}
	raw, err := cs.Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading kube-apiserver's metrics: %w", err)
	}
	return raw, nil
}

var resourceLabel = regexp.MustCompile(`[{,]resource="([^"]*)"`)

// countWrites counts kube-apiserver's write requests so far, from every
// client (kueue-sim, Kueue, kube-scheduler, kube-controller-manager), in
// all and per resource.
func countWrites(metrics []byte) (int64, map[string]int64, error) {
	var total float64
	byResource := map[string]int64{}
	err := eachSample(metrics, []string{"apiserver_request_total{"}, func(line string, v float64) {
		write := false
		for _, verb := range writeVerbs {
			if strings.Contains(line, verb) {
				write = true
				break
			}
		}
		if !write {
			return
		}
		total += v
		if m := resourceLabel.FindStringSubmatch(line); m != nil {
			byResource[m[1]] += int64(v)
		}
	})
	if err != nil {
		return 0, nil, err
	}
	return int64(total), byResource, nil
}
