package examsim_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

func TestReadinessLevels(t *testing.T) {
	conceptsOf := map[string][]string{}
	known := map[string]bool{"a": true, "b": true}
	latest := func(right, wrong int) map[string]*examsim.Attempt {
		out := map[string]*examsim.Attempt{}
		for i := 0; i < right+wrong; i++ {
			id := string(rune('A' + i))
			conceptsOf[id] = []string{[]string{"a", "b"}[i%2]}
			out[id] = &examsim.Attempt{Answer: examsim.Answer{Correct: i < right}}
		}
		return out
	}
	tests := []struct {
		name            string
		right, wrong    int
		total           int
		level           string
		estimate        int
		conceptsCounted int
	}{
		{"too few answers", 5, 0, 20, "none", 100, 2},
		{"ready", 10, 0, 20, "ready", 100, 2},
		{"high but under half the bank tried", 10, 0, 30, "almost", 100, 2},
		{"just over the pass mark", 8, 2, 20, "almost", 80, 2}, // a 4/5, b 4/5
		{"below the pass mark", 6, 4, 20, "not_yet", 60, 2},    // a 3/5, b 3/5
		{"a small bank needs fewer answers", 4, 0, 4, "ready", 100, 2},
	}
	for _, tt := range tests {
		r := examsim.EstimateReadiness(conceptsOf, known, latest(tt.right, tt.wrong), tt.total, 72)
		if r.Level != tt.level || r.Estimate != tt.estimate || r.Concepts != tt.conceptsCounted {
			t.Errorf("%s: level %s estimate %d concepts %d; want %s %d %d", tt.name, r.Level, r.Estimate, r.Concepts, tt.level, tt.estimate, tt.conceptsCounted)
		}
	}
}

func TestWeakestSkipsSolidConcepts(t *testing.T) {
	stat := func(id string, answered, correct, explained, bands int) examsim.ConceptStat {
		return examsim.ConceptStat{Concept: id, Answered: answered, Correct: correct, Explained: explained, BandSum: bands}
	}
	rows := []examsim.ConceptStat{
		stat("solid", 4, 4, 4, 12),
		stat("untried", 0, 0, 0, 0),
		stat("half", 4, 2, 0, 0),
		stat("lucky", 2, 2, 2, 0), // right but band 0: still weak
		stat("worst", 3, 0, 0, 0),
		stat("third", 3, 2, 0, 0),
	}
	self := func(s examsim.ConceptStat) examsim.ConceptStat { return s }
	var got []string
	for _, r := range examsim.Weakest(rows, self, 3) {
		got = append(got, r.Concept)
	}
	if diff := cmp.Diff([]string{"worst", "half", "third"}, got); diff != "" {
		t.Errorf("weakest (-want +got):\n%s", diff)
	}
	got = nil
	for _, r := range examsim.Weakest(rows, self, 10) {
		got = append(got, r.Concept)
	}
	if diff := cmp.Diff([]string{"worst", "half", "third", "lucky"}, got); diff != "" {
		t.Errorf("weakest, all (-want +got):\n%s", diff)
	}
}
