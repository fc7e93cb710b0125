package tools

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// pins holds the modules the Kubernetes binaries and etcd are built in (see
// pins/README.md).
//
//go:embed pins/k8sbin pins/etcdbin
var pins embed.FS

// Pinned module folders under pins/.
const (
	pinKubernetes = "k8sbin"
	pinEtcd       = "etcdbin"
)

// pinnedModule returns the go.mod of a pinned module folder (k8sbin, etcdbin).
func pinnedModule(pin string) ([]byte, error) {
	data, err := pins.ReadFile(path.Join("pins", pin, "go.mod.txt"))
	if err != nil {
		return nil, fmt.Errorf("reading the pinned module %s: %w", pin, err)
	}
	return data, nil
}

// pinnedVersion returns the version the go.mod of pin requires of module.
func pinnedVersion(pin, module string) (string, error) {
	data, err := pinnedModule(pin)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == module {
			return f[1], nil
		}
	}
	return "", fmt.Errorf("pins/%s/go.mod.txt requires no %s", pin, module)
}

func mustPinnedVersion(pin, module string) string {
	v, err := pinnedVersion(pin, module)
	if err != nil {
		panic(err) // the embedded files are broken: TestPinnedVersions fails first
	}
	return v
}

// GoVersion is the oldest Go toolchain every pinned module accepts (the
// highest go directive among them); older toolchains fetch it themselves
// when GOTOOLCHAIN allows.
func GoVersion() string {
	best := "1.21"
	for _, pin := range []string{pinKubernetes, pinEtcd} {
		data, err := pinnedModule(pin)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "go "); ok && newerGo(strings.TrimSpace(v), best) {
				best = strings.TrimSpace(v)
			}
		}
	}
	return best
}

// newerGo tells whether Go version a (1.26.0) is newer than b.
func newerGo(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}

// writePin writes the module of pin into dir: every .txt file of
// pins/<pin> without its suffix (go.mod, go.sum, tools.go, and the main
// packages kueue-sim builds instead of upstream's, in their folders), and
// every .go file but tests as it is (packages that build in kueue-sim's
// module too, where they are tested: noapievents).
func writePin(dir, pin string) error {
	root := path.Join("pins", pin)
	err := fs.WalkDir(pins, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(p, ".txt") && (!strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go")) {
			return nil
		}
		data, err := pins.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(strings.TrimPrefix(p, root+"/"), ".txt")))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("writing the pinned module %s: %w", pin, err)
	}
	return nil
}
