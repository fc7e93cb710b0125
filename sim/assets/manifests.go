package assets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/config"
	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// RequiredCRDs are CRDs without which the control plane is not what kueue-sim
// promises; their absence means config/crd/third_party or config/kueue lost
// its files.
var RequiredCRDs = []string{
	"workloads.kueue.x-k8s.io",
	"clusterqueues.kueue.x-k8s.io",
	"pytorchjobs.kubeflow.org",
	"rayjobs.ray.io",
	"rayclusters.ray.io",
	"notebooks.kubeflow.org",
	"inferenceservices.serving.kserve.io",
}

// ErrManifestsMissing is returned when the embedded third-party manifests are
// absent from the binary.
var ErrManifestsMissing = errors.New("third-party CRDs are not embedded in this binary: " +
	"config/crd/third_party or config/kueue lacks them; restore them with `git checkout config` or `make manifests` and rebuild")

// optionalCRDs is the folder under config of CRDs installed only on request:
// CRDs skips it.
const optionalCRDs = "crd/optional"

// CRDs returns every CRD embedded under config/crd except the optional ones
// (config/crd/optional), then the CRDs of the Kueue release this build runs
// (config/kueue/<release>/crd), each sorted by file name.
func CRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	kueue, err := config.Kueue(kueuerelease.Compiled())
	if err != nil {
		return nil, err
	}
	out, err := crdsIn(config.Manifests, "crd")
	if err != nil {
		return nil, err
	}
	kueueCRDs, err := crdsIn(kueue, "crd")
	if err != nil {
		return nil, err
	}
	return requireCRDs(append(out, kueueCRDs...))
}

// KueueOperatorCRD returns the CRD of the Red Hat build of Kueue operator's
// Kueue object (kueue.openshift.io). It is optional: its presence is what
// "the operator is installed" means to the OpenShift AI reconciler.
func KueueOperatorCRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	var crd *apiextensionsv1.CustomResourceDefinition
	err := walkYAML(config.Manifests, optionalCRDs, func(file string, doc []byte) error {
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := sigsyaml.UnmarshalStrict(doc, c); err != nil {
			return fmt.Errorf("reading CRD in %s: %w", file, err)
		}
		if c.Name == "kueues.kueue.openshift.io" {
			crd = c
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if crd == nil {
		return nil, errors.New("the Kueue operator CRD (kueues.kueue.openshift.io) is not embedded under config/crd/optional: run hack/generate.sh and rebuild")
	}
	return crd, nil
}

// crdsIn reads every CRD in the YAML files under root of fsys, skipping
// config/crd/optional.
func crdsIn(fsys fs.FS, root string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var out []*apiextensionsv1.CustomResourceDefinition
	err := walkYAML(fsys, root, func(file string, doc []byte) error {
		if strings.HasPrefix(file, optionalCRDs+"/") {
			return nil
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := sigsyaml.UnmarshalStrict(doc, crd); err != nil {
			return fmt.Errorf("reading CRD in %s: %w", file, err)
		}
		if crd.Kind != "CustomResourceDefinition" {
			return nil
		}
		out = append(out, crd)
		return nil
	})
	return out, err
}

// requireCRDs returns crds, or an error naming the first of RequiredCRDs
// they lack.
func requireCRDs(crds []*apiextensionsv1.CustomResourceDefinition) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	have := map[string]bool{}
	for _, c := range crds {
		have[c.Name] = true
	}
	for _, name := range RequiredCRDs {
		if !have[name] {
			return crds, fmt.Errorf("CRD %s: %w", name, ErrManifestsMissing)
		}
	}
	return crds, nil
}

// KueueWebhooks returns the webhook configurations of the Kueue release this
// build runs, as shipped in its module's
// config/components/webhook/manifests.yaml.
func KueueWebhooks() ([]*admissionv1.MutatingWebhookConfiguration, []*admissionv1.ValidatingWebhookConfiguration, error) {
	kueue, err := config.Kueue(kueuerelease.Compiled())
	if err != nil {
		return nil, nil, err
	}
	var muts []*admissionv1.MutatingWebhookConfiguration
	var vals []*admissionv1.ValidatingWebhookConfiguration
	err = walkYAML(kueue, "webhook", func(file string, doc []byte) error {
		var meta struct {
			Kind string `json:"kind"`
		}
		if err := sigsyaml.Unmarshal(doc, &meta); err != nil {
			return fmt.Errorf("reading %s: %w", file, err)
		}
		switch meta.Kind {
		case "MutatingWebhookConfiguration":
			m := &admissionv1.MutatingWebhookConfiguration{}
			if err := sigsyaml.UnmarshalStrict(doc, m); err != nil {
				return fmt.Errorf("reading %s: %w", file, err)
			}
			muts = append(muts, m)
		case "ValidatingWebhookConfiguration":
			v := &admissionv1.ValidatingWebhookConfiguration{}
			if err := sigsyaml.UnmarshalStrict(doc, v); err != nil {
				return fmt.Errorf("reading %s: %w", file, err)
			}
			vals = append(vals, v)
		}
		return nil
	})
	if err == nil && len(muts) == 0 && len(vals) == 0 {
		err = fmt.Errorf("Kueue's webhook manifests: %w", ErrManifestsMissing)
	}
	return muts, vals, err
}

// walkYAML calls fn for every YAML document of every .yaml file under root.
func walkYAML(fsys fs.FS, root string, fn func(file string, doc []byte) error) error {
	return fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || (path.Ext(p) != ".yaml" && path.Ext(p) != ".yml") {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		r := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("splitting %s into documents: %w", p, err)
			}
			if len(bytes.TrimSpace(stripComments(doc))) == 0 {
				continue
			}
			if err := fn(p, doc); err != nil {
				return err
			}
		}
	})
}

func stripComments(doc []byte) []byte {
	var b bytes.Buffer
	for _, line := range strings.Split(string(doc), "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") || t == "---" {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
