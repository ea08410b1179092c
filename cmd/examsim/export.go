package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/examsim/examsim/store"
)

// overrideItem and overrideGrade are the labelled corpus's JSONL lines
// (scoring/testdata/corpus: items/*.jsonl and grades/g1.jsonl), so teachers'
// regrades can join the corpus that rubrics are tuned and measured on.
type overrideItem struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Lang     string `json:"lang"`
	Option   string `json:"option"`
	Text     string `json:"text"`
	Kind     string `json:"kind"`
}

type overrideGrade struct {
	ID   string `json:"id"`
	Band int    `json:"band"`
	// Concepts lists the concepts the teacher ticked; the corpus's own
	// grades carry only a band, and its loader ignores this field.
	Concepts []string `json:"concepts"`
	// AutoBand is what the scorer had said, to see what the override fixed.
	AutoBand int `json:"auto_band"`
}

// runScoring dispatches the scoring subcommands.
func runScoring(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "export" {
		fmt.Fprint(stderr, "examsim scoring: say export, e.g. examsim scoring export --db examsim.db --out overrides\n")
		return 2
	}
	return runScoringExport(ctx, args[1:], stdout, stderr)
}

// runScoringExport writes every teacher's regrade as a labelled explanation
// in the corpus's format: DIR/items/overrides.jsonl and DIR/grades/g1.jsonl.
// The files are rewritten on every run; learners' names are not exported.
func runScoringExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scoring export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", envOr("EXAMSIM_DB", "./examsim.db"), "SQLite database file or postgres:// URL (EXAMSIM_DB)")
	out := fs.String("out", "overrides", "folder to write items/overrides.jsonl and grades/g1.jsonl into")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if _, err := os.Stat(*dbPath); err != nil && !store.IsPostgresURL(*dbPath) {
		fmt.Fprintf(stderr, "examsim scoring export: no database at %s: %v; pass --db PATH\n", *dbPath, err)
		return 1
	}
	db, err := store.OpenExisting(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(stderr, "examsim scoring export: cannot open the database %s: %v\n", store.DisplayName(*dbPath), err)
		return 1
	}
	defer db.Close()
	regraded, err := store.NewDisputeService(db).ListRegraded(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "examsim scoring export: reading the regrades: %v\n", err)
		return 1
	}
	var items []any
	var grades []any
	for _, g := range regraded {
		id := fmt.Sprintf("override-%s-%d", g.Target.Kind, g.Target.ID)
		items = append(items, overrideItem{ID: id, Question: g.QuestionID, Lang: string(g.Lang), Option: g.Choice, Text: g.Explanation, Kind: "override"})
		ticked := []string{}
		for _, c := range g.Human.Concepts {
			if c.Hit {
				ticked = append(ticked, c.ID)
			}
		}
		grades = append(grades, overrideGrade{ID: id, Band: g.Human.Band, Concepts: ticked, AutoBand: g.Band})
	}
	itemsPath := filepath.Join(*out, "items", "overrides.jsonl")
	gradesPath := filepath.Join(*out, "grades", "g1.jsonl")
	for path, lines := range map[string][]any{itemsPath: items, gradesPath: grades} {
		if err := writeJSONL(path, lines); err != nil {
			fmt.Fprintf(stderr, "examsim scoring export: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "wrote %d overrides to %s and %s\n", len(regraded), itemsPath, gradesPath)
	return 0
}

// writeJSONL writes one JSON value a line, replacing the file whole: it is
// written beside and renamed, so a failed export never leaves half a file.
func writeJSONL(path string, lines []any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return fmt.Errorf("making %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up after a failure
	w := bufio.NewWriter(tmp)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			_ = tmp.Close() // the encoding error is the one to report
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		_ = tmp.Close() // the write error is the one to report
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
