package questions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
)

// TestEveryCheckMessageIsTranslated: every problem the bank's checks can
// report (the loader's, the cue check's, a rubric pattern's, a teacher
// question's compile) is said through a check.* message id, and each id
// has its own text in all four languages, so a new rule cannot ship in
// English only. It reads the source: each call that records a problem
// must name a literal check.* id (or pass one through, at the few places
// listed), and the catalogs hold no check.* id that no code uses.
func TestEveryCheckMessageIsTranslated(t *testing.T) {
	catalog, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	// Calls that record a problem, and the index of their message id.
	keyArg := map[string]int{"add": 1, "warn": 2, "Msg": 0, "NewProblem": 2}
	// Where an id arrives as a variable, and from where.
	passThrough := map[string]bool{
		"key":         true, // add and warn themselves
		"m.Key":       true, // addMsg
		"noPatterns":  true, // compilePatterns: its callers pass check.rubric_*_no_patterns
		"e.MessageID": true, // addErr: a pattern's *examsim.Error
	}
	used := map[string]bool{}
	var files []string
	for _, dir := range []string{".", "exchange", "../scoring"} {
		matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			if !strings.HasSuffix(m, "_test.go") {
				files = append(files, m)
			}
		}
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && strings.HasPrefix(s, "check.") {
					used[s] = true
				}
			case *ast.CallExpr:
				var fn string
				switch f := n.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				i, ok := keyArg[fn]
				if !ok || len(n.Args) <= i || strings.HasPrefix(name, "../scoring") { // scoring's own add is not a check's
					return true
				}
				switch arg := n.Args[i].(type) {
				case *ast.BasicLit:
					if s, _ := strconv.Unquote(arg.Value); !strings.HasPrefix(s, "check.") {
						t.Errorf("%s: %s records %q, not a check.* message id", fset.Position(n.Pos()), fn, s)
					}
				default:
					if src := exprString(arg); !passThrough[src] {
						t.Errorf("%s: %s records %s: name a check.* message id there", fset.Position(n.Pos()), fn, src)
					}
				}
			}
			return true
		})
	}
	if len(used) < 60 {
		t.Fatalf("found only %d check.* ids in the source: the scan is broken", len(used))
	}
	for id := range used {
		en := catalog.T(examsim.English, id)
		if _, ok := slices.BinarySearch(catalog.Keys(examsim.English), id); !ok {
			t.Errorf("%s is used but not in i18n/locales/en.json", id)
			continue
		}
		for _, l := range examsim.Langs {
			if l == examsim.English {
				continue
			}
			if _, ok := slices.BinarySearch(catalog.Keys(l), id); !ok {
				t.Errorf("%s has no %s text", id, l)
			} else if catalog.T(l, id) == en {
				t.Errorf("%s: the %s text is the English one", id, l)
			}
		}
	}
	for _, id := range catalog.Keys(examsim.English) {
		if strings.HasPrefix(id, "check.") && !used[id] {
			t.Errorf("%s is in the catalogs but no check uses it: remove it", id)
		}
	}
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return "an expression"
}
