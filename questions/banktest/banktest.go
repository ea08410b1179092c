// Package banktest makes large question banks for benchmarks: it copies a
// real bank's questions under new ids until the bank has as many as asked,
// so the loader and the pages work on realistic text at any size.
package banktest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"testing/fstest"
)

// Replicate returns a bank with the topics of src and n questions, made by
// copying src's questions in turn under the ids ORIGINAL-rNNNN.
func Replicate(src fs.FS, n int) (fstest.MapFS, error) {
	out := fstest.MapFS{}
	topics, err := fs.ReadDir(src, ".")
	if err != nil {
		return nil, err
	}
	type question struct{ topic, id string }
	var originals []question
	for _, t := range topics {
		if !t.IsDir() {
			continue
		}
		entries, err := fs.ReadDir(src, t.Name())
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			p := path.Join(t.Name(), e.Name())
			if e.IsDir() {
				originals = append(originals, question{t.Name(), e.Name()})
				continue
			}
			if out[p], err = readFile(src, p); err != nil {
				return nil, err
			}
		}
	}
	if len(originals) == 0 {
		return nil, fmt.Errorf("banktest: the source bank has no questions")
	}
	for i := range n {
		q := originals[i%len(originals)]
		id := fmt.Sprintf("%s-r%04d", q.id, i)
		files, err := fs.ReadDir(src, path.Join(q.topic, q.id))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			file, err := readFile(src, path.Join(q.topic, q.id, f.Name()))
			if err != nil {
				return nil, err
			}
			if f.Name() == "question.yaml" {
				// The id must equal the folder name; it is the first "id:" line.
				file.Data = bytes.Replace(file.Data, []byte("id: "+q.id+"\n"), []byte("id: "+id+"\n"), 1)
			}
			out[path.Join(q.topic, id, f.Name())] = file
		}
	}
	return out, nil
}

func readFile(fsys fs.FS, name string) (*fstest.MapFile, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	return &fstest.MapFile{Data: data, Mode: 0o644}, nil
}

// WriteDir writes a bank made by Replicate under dir, for code that reads
// the bank from disk as examsim serve --questions does.
func WriteDir(dir string, bank fstest.MapFS) error {
	for name, f := range bank {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o600); err != nil {
			return err
		}
	}
	return nil
}
