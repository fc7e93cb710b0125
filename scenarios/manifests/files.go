package manifests

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Limits on what the manifests of one scenario may hold.
const (
	// MaxFileSize bounds one manifest file.
	MaxFileSize = 4 << 20
	// MaxFiles bounds the files the references resolve to.
	MaxFiles = 1_000
	// MaxObjects bounds the objects of all files together.
	MaxObjects = 10_000
)

// manifestExts are the extensions of the files a folder reference loads.
var manifestExts = map[string]bool{".yaml": true, ".yml": true, ".json": true}

// resolve turns the reference at field (a file, a folder or a glob,
// relative to baseDir) into the files it names, in order: a folder gives
// its manifest files, recursively, in lexical order. A reference naming
// nothing is a problem.
func resolve(baseDir, field, ref string) ([]string, []Problem) {
	problem := func(msg string) []Problem { return []Problem{{Item: -1, Field: field, Msg: msg}} }
	if strings.TrimSpace(ref) == "" {
		return nil, problem("empty: give a file, a folder or a glob of manifests, relative to the scenario")
	}
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(baseDir, ref)
	}
	var matches []string
	if strings.ContainsAny(ref, "*?[") {
		var err error
		if matches, err = filepath.Glob(path); err != nil {
			return nil, problem(fmt.Sprintf("not a valid glob %q: %v", ref, err))
		}
		if len(matches) == 0 {
			return nil, problem(fmt.Sprintf("the glob %q matches no file (looked for %s): check the path, which is relative to the scenario's folder", ref, path))
		}
	} else {
		matches = []string{path}
	}
	var files []string
	for _, m := range matches {
		info, err := os.Stat(m)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, problem(fmt.Sprintf("no such file or folder: %s (the path is relative to the scenario's folder)", m))
		case err != nil:
			return nil, problem(fmt.Sprintf("reading %s: %v", m, err))
		case !info.IsDir():
			files = append(files, m)
			continue
		}
		var found []string
		err = filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && manifestExts[strings.ToLower(filepath.Ext(p))] {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, problem(fmt.Sprintf("reading folder %s: %v", m, err))
		}
		if len(found) == 0 && len(matches) == 1 {
			return nil, problem(fmt.Sprintf("the folder %s holds no .yaml, .yml or .json file", m))
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// readFile reads a manifest file, refusing one over MaxFileSize unread.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return data, nil
}
