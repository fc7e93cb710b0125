package bench

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/kueue-sim/kueue-sim/sim/kueuesetup"
)

// harnessCycles reads Kueue's scheduling cycles by result from the last
// scrape in the metrics dump Kueue's runner writes (metricsDump.tgz, one
// Prometheus text file per scrape, when it runs with
// --metricsScrapeInterval): the harness's side of
// Figures.CyclesPerWorkload. Cycles after the last scrape are not counted.
func harnessCycles(dump string) (map[string]float64, error) {
	f, err := os.Open(dump)
	if err != nil {
		return nil, fmt.Errorf("reading the harness's metrics dump: %w", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading the harness's metrics dump %s: %w", dump, err)
	}
	tr := tar.NewReader(gz)
	var last []byte
	for {
		_, err := tr.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break // the runner may stop mid-write: keep the last whole scrape
		}
		if err != nil {
			return nil, fmt.Errorf("reading the harness's metrics dump %s: %w", dump, err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			break
		}
		last = b
	}
	if last == nil {
		return nil, fmt.Errorf("the harness's metrics dump %s holds no scrape", dump)
	}
	return attemptsByResult(string(last))
}

// attemptsByResult reads Kueue's scheduling cycles by result from a
// Prometheus text exposition.
func attemptsByResult(text string) (map[string]float64, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("parsing Kueue's metrics: %w", err)
	}
	var all []*dto.MetricFamily
	for _, mf := range mfs {
		all = append(all, mf)
	}
	return kueuesetup.CyclesByResult(all), nil
}
