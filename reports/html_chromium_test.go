package reports

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium (.ci/run installs it). Without it the
// test is skipped on a workstation and fails in CI.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed: .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// browser is a headless Chromium page.
type browser struct{ ctx context.Context }

func newBrowser(t *testing.T) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	}
	ctx, cancelTimeout := context.WithTimeout(context.Background(), 90*time.Second)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc(); cancelTimeout() })
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting headless chromium: %v", err)
	}
	return &browser{ctx: bctx}
}

// load opens url and returns the console errors, uncaught exceptions and
// browser-log errors (failed loads) seen until the page settled.
func (b *browser) load(t *testing.T, url string) []string {
	t.Helper()
	cctx, cancel := context.WithCancel(b.ctx)
	messages := chromedp.Console(cctx) // subscribed from now on
	var problems []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				problems = append(problems, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line))
			}
		}
	}()
	err := chromedp.Do(b.ctx, chromedp.Navigate(url), chromedp.WaitReady("body"), chromedp.Sleep(300*time.Millisecond))
	cancel()
	<-done
	if err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	return problems
}

// chartBox is what the page shows of one figure.
type chartBox struct {
	ID    string  `json:"id"`
	W     float64 `json:"w"`
	H     float64 `json:"h"`
	Paths int     `json:"paths"`
	Texts int     `json:"texts"`
}

const chartsJS = `Array.from(document.querySelectorAll('figure.chart')).map(f => {
  const s = f.querySelector('svg');
  const r = s ? s.getBoundingClientRect() : {width: 0, height: 0};
  return {id: f.id, w: r.width, h: r.height,
    paths: s ? s.querySelectorAll('path').length : 0,
    texts: s ? s.querySelectorAll('text').length : 0};
})`

// The HTML report of the hand-made run renders in headless Chromium with
// no console error, and its four charts are drawn with a visible size.
func TestHTMLReportRendersInChromium(t *testing.T) {
	dir := t.TempDir()
	if err := handmade(t).WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)

	t.Run("the harness sees console errors", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.html")
		if err := os.WriteFile(bad, []byte(`<!DOCTYPE html><title>x</title><body><script>console.error("broken on purpose")</script></body>`), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := b.load(t, "file://"+bad); !strings.Contains(strings.Join(got, "\n"), "broken on purpose") {
			t.Fatalf("console.error not seen: %v", got)
		}
	})

	if p := b.load(t, "file://"+filepath.Join(dir, HTMLFile)); len(p) > 0 {
		t.Errorf("console errors on report.html:\n%s", strings.Join(p, "\n"))
	}
	title, err := chromedp.Run(b.ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	charts, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]chartBox](chartsJS))
	if err != nil {
		t.Fatal(err)
	}
	tables, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll('table').length`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("charts as drawn: %+v; %d tables", charts, tables)
	if title != "kueue-sim report: handmade" {
		t.Errorf("title %q", title)
	}
	if tables < 8 {
		t.Errorf("%d tables, want the 8 or more of every section", tables)
	}
	want := []string{"chart-utilization", "chart-team-usage", "chart-waits", "chart-shares"}
	if len(charts) != len(want) {
		t.Fatalf("charts %+v, want %v", charts, want)
	}
	for i, c := range charts {
		if c.ID != want[i] || c.W < 300 || c.H < 100 || c.Paths < 5 || c.Texts < 4 {
			t.Errorf("chart %d: %+v: want %s drawn at least 300×100 px with paths and labels", i, c, want[i])
		}
	}
}
