package web

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/web/classview"
	"github.com/examsim/examsim/web/internal/sse"
)

// TestStageAssembledInEachOrder: a question's stage, rendered once per
// language and put together from its pieces in a student's order of the
// answer tiles, is byte for byte the stage rendered in that order, for
// every order, in four languages, with explanations off, optional and
// required.
func TestStageAssembledInEachOrder(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	fsys, name := questions.Embedded()
	bank, problems := questions.Load(fsys, name)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var qs []*questions.Question
	for _, q := range bank.Questions {
		if len(qs) < 3 && len(ownLetters(q)) == 4 {
			qs = append(qs, q)
		}
	}
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	ctx := context.Background()
	for _, expl := range []examsim.ExplanationMode{examsim.ExplainOff, examsim.ExplainOptional, examsim.ExplainRequired} {
		for index, q := range qs {
			run := examsim.ClassRun{ID: 9, Mode: examsim.ModeLive, Phase: examsim.PhaseQuestion, QuestionIndex: index,
				QuestionStartedAt: now, Quiz: examsim.Quiz{Explanations: expl, SecondsPerQuestion: 30}}
			snap := &classroom.Snapshot{Version: 3, Run: run, Questions: qs, Question: q, Deadline: now.Add(30 * time.Second)}
			for _, lang := range examsim.Langs {
				page := &Page{Lang: lang, Catalog: cat, Bank: bank}
				v := playView{Snap: snap, Index: index, Variant: classview.StageQuestion, Now: now, After: -1,
					Me: classroom.PlayerView{Player: examsim.Player{Lang: lang}}, Order: ownLetters(q)}
				shared, err := renderStage(ctx, page, v)
				if err != nil {
					t.Fatal(err)
				}
				for _, order := range orders(ownLetters(q)) {
					v.Order = order
					html, err := renderFor(ctx, page, PlayStage(v))
					if err != nil {
						t.Fatal(err)
					}
					want := string(append(sse.Event("stage", html), stateEvent(v)...))
					if diff := cmp.Diff(want, string(bytes.Join(shared.appendTo(nil, order), nil))); diff != "" {
						t.Fatalf("%s, %s, explanations %s, order %v (-rendered +assembled):\n%s", q.ID, lang, expl, order, diff)
					}
				}
			}
		}
	}
}

// orders are every order of letters.
func orders(letters []string) [][]string {
	if len(letters) <= 1 {
		return [][]string{append([]string(nil), letters...)}
	}
	var out [][]string
	for i, first := range letters {
		rest := append(append([]string(nil), letters[:i]...), letters[i+1:]...)
		for _, tail := range orders(rest) {
			out = append(out, append([]string{first}, tail...))
		}
	}
	return out
}

// TestStageFitsOrders: a stage is sent in a student's order only when it
// has a tile for each of the order's letters; otherwise that order is
// rendered whole.
func TestStageFitsOrders(t *testing.T) {
	split := &sharedEvent{letters: []string{"A", "B", "C", "D"}}
	whole := &sharedEvent{}
	for _, tc := range []struct {
		name  string
		e     *sharedEvent
		order []string
		want  bool
	}{
		{"a stage with no tiles, no order", whole, nil, true},
		{"a split stage, a full order", split, []string{"D", "B", "A", "C"}, true},
		{"a split stage, no order", split, nil, true},
		{"a stage kept whole, an order", whole, []string{"A", "B", "C", "D"}, false},
		{"a letter it lacks", split, []string{"A", "B", "C", "E"}, false},
		{"a shorter order", split, []string{"A", "B", "C"}, false},
	} {
		if got := tc.e.fits(tc.order); got != tc.want {
			t.Errorf("%s: fits %t, want %t", tc.name, got, tc.want)
		}
	}
}
