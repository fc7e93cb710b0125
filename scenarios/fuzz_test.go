package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadTimeout is far more than any input within MaxFileSize needs.
const loadTimeout = 10 * time.Second

// FuzzLoad feeds the loader mutations of the bundled scenarios and of the
// broken ones: it must never panic or hang, and must return either a
// scenario that passes Validate or an *Error listing problems.
//
//	go test -fuzz=FuzzLoad ./scenarios/
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"*.yaml", "testdata/invalid/*.yaml"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(minimal))
	f.Add([]byte(jsonScenario))
	// Streams of templates: files (found from the scenarios folder, where
	// "fuzz.yaml" is) and the same objects inline.
	if data, err := os.ReadFile("testdata/templates.yaml"); err == nil {
		f.Add(bytes.ReplaceAll(data, []byte("template: templates/"), []byte("template: testdata/templates/")))
	}
	templates, _ := filepath.Glob("testdata/templates*/*.yaml")
	for _, file := range templates {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(inlineTemplate(data)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// A hang would stall the fuzzer silently: crash the worker instead,
		// which records the input.
		watchdog := time.AfterFunc(loadTimeout, func() {
			panic(fmt.Sprintf("Load has not returned after %s on %d bytes", loadTimeout, len(data)))
		})
		s, err := Load("fuzz.yaml", "fuzz", data)
		watchdog.Stop()
		if err == nil {
			if s == nil {
				t.Fatal("Load returned neither a scenario nor an error")
			}
			if errs := Validate(s); len(errs) > 0 {
				t.Fatalf("Load accepted a scenario that fails Validate: %v", errs)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Load returned %T, want *Error: %v", err, err)
		}
		if len(e.Problems) == 0 || len(e.Problems) > MaxProblems {
			t.Fatalf("an Error with %d problems: %v", len(e.Problems), err)
		}
		for _, p := range e.Problems {
			if strings.Contains(p.Msg, "Internal error") {
				t.Fatalf("the type check let through what the decoder refused: %s", p.Msg)
			}
		}
		_ = e.Error()
	})
}
