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
