package questions

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

func loadFixture(t *testing.T, name string) *Bank {
	t.Helper()
	bank, problems := Load(os.DirFS("testdata/"+name), "testdata/"+name)
	if len(problems) > 0 {
		t.Fatalf("fixture bank %s has problems:\n%s", name, problems.Error())
	}
	return bank
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TestCuesOnACuedBank checks the figures against ones worked out by hand
// from testdata/cued (the same text in every language):
//
//	q1 key A 15 chars (`isRetryable` x), distractors 5 5 5: longest, 15/5-1 = 2
//	q2 key B 4, distractors 12 12 12 ("alternatives" is prose): 4/12-1 = -2/3
//	q3 key C 6, distractors 13 13 13 (A is `description`): 6/13-1 = -7/13
//	q4 key D 9, distractors 3 3 6: longest, 9/4-1 = 1.25
//
// so the key is the longest in 2 of 4 (50%), on average (2-2/3-7/13+1.25)/4
// = +51.1% longer, 1 of 4 keys and 1 of 12 distractors carry a field name,
// and q1, q2 share alpha bravo charlie of 8 distinct tokens once "tool"
// (in every stem) is dropped: 3/8.
func TestCuesOnACuedBank(t *testing.T) {
	cues := Cues(loadFixture(t, "cued"))
	if len(cues) != len(examsim.Langs) {
		t.Fatalf("figures for %d languages, want %d", len(cues), len(examsim.Langs))
	}
	for _, c := range cues {
		if c.Questions != 4 || c.KeyLongest != 2 || c.Distractors != 12 || c.KeysWithField != 1 || c.DistrWithField != 1 {
			t.Errorf("%s: counts %+v", c.Lang, c)
		}
		if want := (2 - 2.0/3 - 7.0/13 + 1.25) / 4; !near(c.KeyLengthExcess, want) {
			t.Errorf("%s: key length excess %.6f, want %.6f", c.Lang, c.KeyLengthExcess, want)
		}
		if !c.FieldNameCue() {
			t.Errorf("%s: keys carry field names 25%% vs 8.3%%: a cue", c.Lang)
		}
		if len(c.NearDuplicates) != 1 || c.NearDuplicates[0].A.ID != "q1" || c.NearDuplicates[0].B.ID != "q2" || !near(c.NearDuplicates[0].Similarity, 3.0/8) {
			t.Errorf("%s: near-duplicates %+v", c.Lang, c.NearDuplicates)
		}
		got := english(c.Failures())
		want := []string{
			string(c.Lang) + ": the key is strictly the longest option in 50% of questions (2 of 4); at most 30% may be: shorten keys or lengthen distractors",
			string(c.Lang) + ": the key is on average +51.1% longer than the mean distractor; at most +5%",
			string(c.Lang) + ": 25% of keys carry a field name (isError, is_error, errorCategory…) but only 8% of distractors; name fields in distractors as often",
			string(c.Lang) + ": q1 and q2 are near-duplicates (stem and key overlap 0.38; keep it below 0.25): make one test something else",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("failures (-want +got):\n%s", diff)
		}
	}
}

// TestCuesOnACleanBank: testdata/clean has no cue, so no failure; its
// figures, by hand: keys 4 vs 5 5 5, 13 vs 9 15 17, 6 vs 6 6 6, 4 vs 7 7 7.
func TestCuesOnACleanBank(t *testing.T) {
	for _, c := range Cues(loadFixture(t, "clean")) {
		if f := c.Failures(); len(f) > 0 {
			t.Errorf("%s: a clean bank fails:\n%s", c.Lang, strings.Join(english(f), "\n"))
		}
		if want := (4.0/5 - 1 + 13/(41.0/3) - 1 + 0 + 4.0/7 - 1) / 4; !near(c.KeyLengthExcess, want) {
			t.Errorf("%s: key length excess %.6f, want %.6f", c.Lang, c.KeyLengthExcess, want)
		}
		if c.KeyLongest != 0 || c.KeysWithField != 1 || c.DistrWithField != 3 || c.MostSimilar.Similarity != 0 {
			t.Errorf("%s: %+v", c.Lang, c)
		}
	}
}

func TestFieldNamesCountOnlyAsCode(t *testing.T) {
	for md, want := range map[string]bool{
		"list the alternatives":                            false,
		"set `isRetryable` to false":                       true,
		"```json\n{\"errorCategory\": \"transient\"}\n```": true,
		"`isRetryableX` is not a field":                    false,
		"a `description` field":                            true,
	} {
		if got := carriesFieldName(md); got != want {
			t.Errorf("carriesFieldName(%q) = %v, want %v", md, got, want)
		}
	}
}

func TestThaiTokensAreThreeCharacterPieces(t *testing.T) {
	got := tokens("ลองใหม่ OK")
	for _, w := range []string{"ลอง", "องใ", "ใหม", "หม่", "ok"} {
		if !got[w] {
			t.Errorf("token %q missing from %v", w, got)
		}
	}
}

// TestCuesFlagTitlesAndOddOpenings runs the per-question checks on
// testdata/giveaway, whose questions are built to trip them or to come
// just short (Thai has its own text, cut into letters rather than words):
//
//	g1 the title's words all in the key, none in a distractor: flagged
//	g2 the title shares as many words with a distractor as with the key
//	g3 three distractors open "In both cases," and the key does not: flagged
//	g4 the key opens "In both cases," too
//	g5 the distractors share two words only ("Retry the"), under three
//	g6 the shared opening is code (`isError: true`), which does not count
func TestCuesFlagTitlesAndOddOpenings(t *testing.T) {
	type flags struct{ Titles, Openings []string }
	want := map[examsim.Lang]flags{
		examsim.English:    {Titles: []string{"g1: after, backoff, pause"}, Openings: []string{"g3: in both cases,"}},
		examsim.Vietnamese: {Titles: []string{"g1: after, backoff, pause"}, Openings: []string{"g3: in both cases,"}},
		examsim.Polish:     {Titles: []string{"g1: after, backoff, pause"}, Openings: []string{"g3: in both cases,"}},
		examsim.Thai:       {Titles: []string{"g1: งรอ, ลัง, หลั, ังร, ำหล, ้ำห"}, Openings: []string{"g3: ทั้งสองกรณีให้"}},
	}
	got := map[examsim.Lang]flags{}
	for _, c := range Cues(loadFixture(t, "giveaway")) {
		var f flags
		for _, g := range c.TitleGiveaways {
			f.Titles = append(f.Titles, g.Q.ID+": "+strings.Join(g.Words, ", "))
		}
		for _, o := range c.OddOpenings {
			f.Openings = append(f.Openings, o.Q.ID+": "+o.Opening)
		}
		got[c.Lang] = f
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flagged questions (-want +got):\n%s", diff)
	}
}

// TestCueFailuresNameTheQuestion: each per-question flag becomes one line
// of `questions check` output that names the question and says what to do.
func TestCueFailuresNameTheQuestion(t *testing.T) {
	q := &Question{ID: "q9"}
	for _, tc := range []struct {
		name  string
		stats CueStats
		want  []string
	}{
		{"title", CueStats{Lang: examsim.English, TitleGiveaways: []TitleGiveaway{{Q: q, Words: []string{"prompt", "system"}, Share: 2.0 / 3}}},
			[]string{"en: q9: the title names the key (prompt, system are in the key and in no distractor, 67% of the title's words); give it a neutral title that does not hint at any option"}},
		{"opening", CueStats{Lang: examsim.Polish, OddOpenings: []OddOpening{{Q: q, Opening: "w obu przypadkach"}}},
			[]string{`pl: q9: every distractor opens with "w obu przypadkach" and the key does not, so it stands out; open one distractor like the key, or vary the openings`}},
		{"none", CueStats{Lang: examsim.Thai}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, english(tc.stats.Failures())); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBankPassesTheCueCheck: the embedded bank has no cue, per question or
// bank-wide, in any language.
func TestBankPassesTheCueCheck(t *testing.T) {
	bank, problems := Load(os.DirFS("bank"), "bank")
	if len(problems) > 0 {
		t.Fatalf("the bank has problems:\n%s", problems.Error())
	}
	for _, c := range Cues(bank) {
		if f := c.Failures(); len(f) > 0 {
			t.Errorf("%s:\n%s", c.Lang, strings.Join(english(f), "\n"))
		}
	}
}

// english is what `questions check` prints for each message.
func english(ms []Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return out
}
