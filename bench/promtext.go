package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// eachSample calls f with every sample of a Prometheus text exposition
// (kube-apiserver's /metrics) whose line starts with one of prefixes: the
// whole line, for its labels, and its value. Comments and other metrics
// are skipped.
func eachSample(metrics []byte, prefixes []string, f func(line string, v float64)) error {
	sc := bufio.NewScanner(bytes.NewReader(metrics))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if !hasAnyPrefix(line, prefixes) {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			return fmt.Errorf("reading kube-apiserver's metrics: %q: %w", line, err)
		}
		f(line, v)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading kube-apiserver's metrics: %w", err)
	}
	return nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
