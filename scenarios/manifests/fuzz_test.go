package manifests

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode feeds the manifest decoder arbitrary input, seeded with the
// test manifests: it must never panic, and every problem about a document
// names its line.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(rf + "---\n" + rf))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, probs := Decode("fuzz.yaml", data)
		for _, p := range probs {
			if p.Doc > 0 && p.Line == 0 {
				t.Errorf("problem without a line: %s", p)
			}
		}
	})
}

// FuzzDecodeTemplate feeds the template decoder arbitrary input, seeded
// with the scenarios' test templates: it must never panic, and a decoded
// template is one object with every problem placed.
func FuzzDecodeTemplate(f *testing.F) {
	files, _ := filepath.Glob("../testdata/templates*/*.yaml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, probs := DecodeTemplate("fuzz.yaml", data)
		if obj != nil && len(probs) > 0 {
			t.Errorf("a template and problems: %v", probs)
		}
		if obj == nil && len(probs) == 0 {
			t.Error("neither a template nor a problem")
		}
		if obj != nil && obj.Obj == nil {
			t.Error("a template without its object")
		}
	})
}
