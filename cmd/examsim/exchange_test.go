package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/questions/exchange"
	"github.com/examsim/examsim/questions/exchange/exchangetest"
)

// A teacher's exported zip, unpacked, passes `examsim questions check` (cue
// check included) and loads as serve's --questions bank, with and without
// the built-in questions beside it.
func TestExportedZipPassesCheckAndLoads(t *testing.T) {
	for _, withBank := range []bool{false, true} {
		bankFS, _ := questions.Embedded()
		var buf bytes.Buffer
		skips, err := exchange.Export(&buf, bankFS, []*examsim.AuthoredQuestion{exchangetest.Question()}, withBank)
		if err != nil || len(skips) > 0 {
			t.Fatalf("export: %v, skipped %v", err, skips)
		}
		dir := unzip(t, buf.Bytes())
		var out, errOut bytes.Buffer
		if code := runQuestionsCheck([]string{"--cues=" + map[bool]string{true: "true", false: "false"}[withBank], dir}, &out, &errOut); code != 0 {
			t.Fatalf("questions check exits %d:\n%s%s", code, out.String(), errOut.String())
		}
		bank, problems := loadBank(dir)
		if len(problems) > 0 {
			t.Fatalf("--questions %s: %v", dir, problems)
		}
		if _, ok := bank.Question("locked-calendar"); !ok {
			t.Errorf("the bank loaded from the zip lacks the exported question; it has %d", len(bank.Questions))
		}
		if !strings.Contains(out.String(), "languages: en pl th vi") {
			t.Errorf("check's summary %q: want all four languages", out.String())
		}
	}
}

func unzip(t *testing.T, data []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range zr.File {
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
