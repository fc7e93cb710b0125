package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// writeVerbs are the verbs of apiserver_request_total that write.
var writeVerbs = []string{`verb="POST"`, `verb="PUT"`, `verb="PATCH"`, `verb="DELETE"`, `verb="APPLY"`, `verb="DELETECOLLECTION"`}

// APIWrites reads kube-apiserver's count of write requests so far, from
// every client (kueue-sim, Kueue, kube-scheduler, kube-controller-manager).
func APIWrites(ctx context.Context, cfg *rest.Config) (int64, error) {
	n, _, err := APIWritesByResource(ctx, cfg)
	return n, err
}

// APIWritesByResource is APIWrites with the count per resource.
func APIWritesByResource(ctx context.Context, cfg *rest.Config) (int64, map[string]int64, error) {
	raw, err := apiMetrics(ctx, cfg)
	if err != nil {
		return 0, nil, err
	}
	return countWrites(raw)
}

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

func countWrites(metrics []byte) (int64, map[string]int64, error) {
	var total float64
	byResource := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(metrics))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "apiserver_request_total{") {
			continue
		}
		write := false
		for _, v := range writeVerbs {
			if strings.Contains(line, v) {
				write = true
				break
			}
		}
		if !write {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			return 0, nil, fmt.Errorf("reading kube-apiserver's metrics: %q: %w", line, err)
		}
		total += v
		if m := resourceLabel.FindStringSubmatch(line); m != nil {
			byResource[m[1]] += int64(v)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, nil, fmt.Errorf("reading kube-apiserver's metrics: %w", err)
	}
	return int64(total), byResource, nil
}
