package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions/exchange/exchangetest"
	"github.com/examsim/examsim/store"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

type authoredWorld struct {
	svc               *store.AuthoredQuestionService
	author, colleague *examsim.Learner
	student, admin    *examsim.Learner
}

func newAuthoredWorld(t *testing.T, open opener) *authoredWorld {
	t.Helper()
	db := open(t)
	acc := store.NewLearnerService(db)
	mk := func(name string, role examsim.Role) *examsim.Learner {
		l, err := acc.CreateAccount(context.Background(), name, "a less common passphrase", role)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	return &authoredWorld{svc: store.NewAuthoredQuestionService(db),
		author: mk("ines", examsim.RoleInstructor), colleague: mk("ivan", examsim.RoleInstructor),
		student: mk("lena", examsim.RoleLearner), admin: mk("ada", examsim.RoleAdmin)}
}

func (w *authoredWorld) create(t *testing.T) *examsim.AuthoredQuestion {
	t.Helper()
	q := exchangetest.Question()
	q.AuthorID = w.author.ID
	if err := w.svc.Create(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	return q
}

var ignoreTime = cmpopts.IgnoreFields(examsim.AuthoredQuestion{}, "UpdatedAt")

func TestAuthoredRoundTripAndVersions(t *testing.T) {
	eachDialect(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		w := newAuthoredWorld(t, open)
		q := w.create(t)
		want := exchangetest.Question()
		want.AuthorID, want.Version = w.author.ID, 1
		got, err := w.svc.Get(ctx, w.author, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, ignoreTime); diff != "" {
			t.Fatalf("stored question (-want +got):\n%s", diff)
		}

		// An edit is a new version; version 1 stays as it was, for its answers.
		edit := *got
		edit.Texts = map[examsim.Lang]*examsim.AuthoredText{examsim.English: got.Texts[examsim.English]}
		edit.Rubric = nil
		if err := w.svc.Update(ctx, w.author.ID, &edit); err != nil {
			t.Fatal(err)
		}
		if edit.Version != 2 {
			t.Errorf("version after an edit %d, want 2", edit.Version)
		}
		v1, err := w.svc.GetVersion(ctx, q.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, v1, ignoreTime); diff != "" {
			t.Errorf("version 1 after the edit (-want +got):\n%s", diff)
		}
		latest, _ := w.svc.Get(ctx, w.author, q.ID)
		if latest.Version != 2 || latest.Rubric != nil || len(latest.Langs()) != 1 {
			t.Errorf("latest is version %d with rubric %v in %v; want version 2, no rubric, en only", latest.Version, latest.Rubric, latest.Langs())
		}

		// Deleted: gone from use, its versions still explain old answers.
		if err := w.svc.Delete(ctx, w.author.ID, q.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := w.svc.Get(ctx, w.author, q.ID); examsim.ErrorCode(err) != examsim.ENOTFOUND {
			t.Errorf("Get after delete: %v, want not found", err)
		}
		if _, err := w.svc.GetVersion(ctx, q.ID, 2); err != nil {
			t.Errorf("GetVersion after delete: %v", err)
		}
		if _, err := w.svc.GetVersion(ctx, q.ID, 3); examsim.ErrorCode(err) != examsim.ENOTFOUND {
			t.Errorf("a version never written: %v, want not found", err)
		}
	})
}

func TestAuthoredVisibility(t *testing.T) {
	eachDialect(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		w := newAuthoredWorld(t, open)
		q := w.create(t)
		visible := func(v *examsim.Learner) bool {
			t.Helper()
			list, err := w.svc.Visible(ctx, v)
			if err != nil {
				t.Fatal(err)
			}
			_, getErr := w.svc.Get(ctx, v, q.ID)
			if (len(list) == 1) != (getErr == nil) {
				t.Errorf("%s: Visible lists %d, Get says %v: the two rules differ", v.Username, len(list), getErr)
			}
			if getErr != nil && examsim.ErrorCode(getErr) != examsim.ENOTFOUND {
				t.Errorf("%s: Get says %v, want not found", v.Username, getErr)
			}
			return getErr == nil
		}
		for _, shared := range []bool{false, true} {
			if err := w.svc.SetShared(ctx, w.author.ID, q.ID, shared); err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, v := range []*examsim.Learner{w.author, w.colleague, w.student, w.admin} {
				got[v.Username] = visible(v)
			}
			want := map[string]bool{"ines": true, "ivan": shared, "lena": false, "ada": true}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("shared=%v: who sees it (-want +got):\n%s", shared, diff)
			}
		}
	})
}

func TestAuthoredOnlyTheAuthorWrites(t *testing.T) {
	eachDialect(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		w := newAuthoredWorld(t, open)
		q := w.create(t)
		if err := w.svc.SetShared(ctx, w.author.ID, q.ID, true); err != nil {
			t.Fatal(err)
		}
		other := *q
		tests := []struct {
			name string
			err  error
			want examsim.Code
		}{
			{"update", w.svc.Update(ctx, w.colleague.ID, &other), examsim.EFORBIDDEN},
			{"share", w.svc.SetShared(ctx, w.colleague.ID, q.ID, false), examsim.EFORBIDDEN},
			{"delete", w.svc.Delete(ctx, w.colleague.ID, q.ID), examsim.EFORBIDDEN},
			{"samples", w.svc.SetSamples(ctx, w.colleague.ID, q.ID, nil), examsim.EFORBIDDEN},
			{"unknown id", w.svc.Delete(ctx, w.author.ID, "no-such-question"), examsim.ENOTFOUND},
			{"id taken", w.svc.Create(ctx, &examsim.AuthoredQuestion{ID: q.ID, AuthorID: w.colleague.ID}), examsim.ECONFLICT},
		}
		for _, tt := range tests {
			if got := examsim.ErrorCode(tt.err); got != tt.want {
				t.Errorf("%s: %v, want %s", tt.name, tt.err, tt.want)
			}
		}
		if other.Version != 1 {
			t.Errorf("a refused update moved the caller's version to %d", other.Version)
		}
	})
}

// Two editors saving from the same version: exactly one edit is stored,
// the other is told the question changed meanwhile.
func TestAuthoredConcurrentEdits(t *testing.T) {
	eachDialect(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		w := newAuthoredWorld(t, open)
		q := w.create(t)
		const editors = 6
		errs := make([]error, editors)
		var wg sync.WaitGroup
		for i := range editors {
			wg.Go(func() {
				edit := *q
				edit.Difficulty = []string{"easy", "medium", "hard"}[i%3]
				errs[i] = w.svc.Update(ctx, w.author.ID, &edit)
			})
		}
		wg.Wait()
		won := 0
		var e *examsim.Error
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case examsim.ErrorCode(err) == examsim.ECONFLICT && errors.As(err, &e) && e.MessageID == "authored.error_edited_meanwhile":
			default:
				t.Errorf("an edit failed with %v, want success or conflict", err)
			}
		}
		if won != 1 {
			t.Errorf("%d edits stored, want exactly 1", won)
		}
		latest, _ := w.svc.Get(ctx, w.author, q.ID)
		if latest.Version != 2 {
			t.Errorf("version %d after one stored edit, want 2", latest.Version)
		}
	})
}

func TestAuthoredSamples(t *testing.T) {
	eachDialect(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		w := newAuthoredWorld(t, open)
		q := w.create(t)
		samples := []examsim.RubricSample{
			{Lang: examsim.English, Text: "They lack access; only the user can grant it.", Expected: 3},
			{Lang: examsim.Polish, Text: "Ponów później.", Expected: 0},
		}
		if err := w.svc.SetSamples(ctx, w.author.ID, q.ID, samples); err != nil {
			t.Fatal(err)
		}
		got, err := w.svc.Samples(ctx, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(samples, got, cmpopts.IgnoreFields(examsim.RubricSample{}, "ID")); diff != "" {
			t.Errorf("samples (-want +got):\n%s", diff)
		}
		bad := []examsim.RubricSample{{Lang: examsim.English, Text: "x", Expected: 4}}
		if err := w.svc.SetSamples(ctx, w.author.ID, q.ID, bad); examsim.ErrorCode(err) != examsim.EINVALID {
			t.Errorf("band 4: %v, want invalid", err)
		}
		if got, _ := w.svc.Samples(ctx, q.ID); len(got) != 2 {
			t.Errorf("a refused replacement changed the samples: %d left", len(got))
		}
	})
}
