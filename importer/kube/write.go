package kube

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// Write writes the import into dir: scenario.yaml, manifests/ (one file per
// kind, or the --cluster folder's files), templates/ (the owners'
// manifests the streams name) and kueue-config.yaml. dir must be new,
// empty, or an earlier import's folder (its scenario.yaml starts with
// HeaderMarker), whose manifests/ and templates/ are then replaced. It
// then loads what it wrote (Verify): a user never gets a scenario that does
// not load.
func (imp *Import) Write(dir string) error {
	if err := prepare(dir); err != nil {
		return err
	}
	mdir := filepath.Join(dir, ManifestsDir)
	names, files, err := imp.Manifests.Files()
	if err != nil {
		return err
	}
	if len(names) > 0 || imp.CopyManifests != "" {
		if err := os.MkdirAll(mdir, 0o755); err != nil {
			return fmt.Errorf("writing the manifests: %w", err)
		}
	}
	if imp.CopyManifests != "" {
		if err := copyManifests(imp.CopyManifests, mdir); err != nil {
			return err
		}
	}
	own := filepath.Join(dir, imp.OwnManifestsDir())
	if len(names) > 0 {
		if err := os.MkdirAll(own, 0o755); err != nil {
			return fmt.Errorf("writing the manifests: %w", err)
		}
	}
	for _, name := range names {
		if err := writeNew(filepath.Join(own, name), files[name]); err != nil {
			return fmt.Errorf("writing the manifests: %w", err)
		}
	}
	if err := imp.writeTemplates(dir); err != nil {
		return err
	}
	if imp.KueueConfig != nil {
		if err := os.WriteFile(filepath.Join(dir, KueueConfigFile), imp.KueueConfig, 0o644); err != nil {
			return fmt.Errorf("writing the Kueue configuration: %w", err)
		}
	}
	data, err := imp.YAML()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ScenarioFile), data, 0o644); err != nil {
		return fmt.Errorf("writing the scenario: %w", err)
	}
	return Verify(dir)
}

// YAML is scenario.yaml's content: the top comment (source, what was
// inferred, what could not be read, the notes), then the scenario.
func (imp *Import) YAML() ([]byte, error) {
	body, err := imp.body()
	if err != nil {
		return nil, err
	}
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s %s from %s.\n", HeaderMarker, imp.Command, imp.Source)
	comment := func(prefix string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&head, "# %s\n", prefix)
		for _, l := range lines {
			fmt.Fprintf(&head, "#   - %s\n", oneLine(l))
		}
	}
	if imp.Incomplete() {
		comment(IncompletePrefix+" the import could not read these, and the scenario lacks them:", imp.Missing)
	}
	comment(InferredPrefix+" the import did not read these but made them up from the workloads:", imp.Inferred)
	comment(InferredPrefix+" the workloads or objects name these and the cluster lacks them; the import added them so that the scenario loads:", imp.AddedText())
	comment("Notes:", imp.Notes)
	if line := imp.OwnersLine(); line != "" {
		fmt.Fprintf(&head, "# %s.\n", line)
	}
	fmt.Fprintf(&head, "# %s in %s; %s.\n", plural(imp.Workloads, "workload"), plural(len(imp.Scenario.Workloads), "stream"),
		plural(len(imp.Scenario.Cluster.NodePools), "node pool"))
	return append(head.Bytes(), body...), nil
}

// unpinned stands for cluster.kueueVersion while the scenario is
// marshalled with KueueComment: the marshaller sorts the keys, so its line
// is where the field would be, and becomes the comment.
const unpinned = "kueue-sim-unpinned"

// body is the scenario as YAML, with KueueComment, when set, at
// cluster.kueueVersion's place.
func (imp *Import) body() ([]byte, error) {
	s := imp.Scenario
	if imp.KueueComment != "" && s.Cluster.KueueVersion == "" {
		c := *s
		c.Cluster.KueueVersion = unpinned
		s = &c
	}
	body, err := yaml.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("writing the scenario: %w", err)
	}
	lines := strings.SplitAfter(string(body), "\n")
	out := lines[:0]
	for _, l := range lines {
		switch {
		case s != imp.Scenario && strings.TrimSpace(l) == "kueueVersion: "+unpinned:
			indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
			l = indent + "# " + oneLine(imp.KueueComment) + "\n"
		case l == streamNoKind || l == streamNoRequests:
			// A templated stream: the template holds the kind and the
			// requests.
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "")), nil
}

// The lines a templated stream's unset kind and requests marshal to (the
// fields have no omitempty).
const (
	streamNoKind     = "  kind: \"\"\n"
	streamNoRequests = "  requests: null\n"
)

// writeTemplates writes the owners' manifests into dir/templates/.
func (imp *Import) writeTemplates(dir string) error {
	if len(imp.Templates) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, TemplatesDir), 0o755); err != nil {
		return fmt.Errorf("writing the templates: %w", err)
	}
	for _, t := range imp.Templates {
		data, err := t.YAML(imp.Command, imp.Redacted)
		if err != nil {
			return err
		}
		if err := writeNew(filepath.Join(dir, filepath.FromSlash(t.File)), data); err != nil {
			return fmt.Errorf("writing the templates: %w", err)
		}
	}
	return nil
}

// AddedDir is the folder, in manifests/, of the objects an import adds to
// the --cluster folder's it copies.
const AddedDir = "added"

// OwnManifestsDir is the folder, relative to the import's, of the manifest
// files of imp.Manifests: manifests/, or manifests/added/ beside the copied
// --cluster folder's files.
func (imp *Import) OwnManifestsDir() string {
	if imp.CopyManifests != "" {
		return filepath.Join(ManifestsDir, AddedDir)
	}
	return ManifestsDir
}

// writeNew writes a file that must not exist yet: the import's own
// manifests never replace a copied one.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// prepare makes dir ready: created when missing; an earlier import's
// manifests/ and templates/ removed; anything else refused.
func prepare(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", dir, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing into %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	head, err := os.ReadFile(filepath.Join(dir, ScenarioFile))
	if err != nil || !bytes.HasPrefix(head, []byte(HeaderMarker)) {
		return fmt.Errorf("%s is not empty and holds no earlier import (%s written by sim import): give a new folder", dir, ScenarioFile)
	}
	for _, sub := range []string{ManifestsDir, TemplatesDir} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			return fmt.Errorf("replacing the earlier import's %s: %w", sub, err)
		}
	}
	_ = os.Remove(filepath.Join(dir, KueueConfigFile))
	return nil
}

// copyManifests copies the manifest files of src (its sub-folders' too)
// into dst, keeping their relative paths.
func copyManifests(src, dst string) error {
	absSrc, _ := filepath.Abs(src)
	absDst, _ := filepath.Abs(dst)
	if absSrc == absDst {
		return fmt.Errorf("--cluster %s is the folder being written: give another", src)
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copying the manifests of %s: %w", src, err)
		}
		if d.IsDir() || !manifestFile(path) {
			return nil
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return fmt.Errorf("copying the manifests of %s: %w", src, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("copying the manifests of %s: %w", src, err)
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return fmt.Errorf("copying the manifests: %w", err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			return fmt.Errorf("copying the manifests: %w", err)
		}
		return nil
	})
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "s") {
		return fmt.Sprintf("%d %ses", n, thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
