package exam_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim/exam"
	"github.com/examsim/examsim/questions"
)

type mapBank map[string]*questions.Question

func (b mapBank) Question(id string) (*questions.Question, bool) { q, ok := b[id]; return q, ok }

// blueprintBank is one topic whose objectives have the given weights and
// numbers of questions; question ids are objective-n.
func blueprintBank(weights []int, counts []int) (mapBank, *questions.Topic, []string) {
	tp := &questions.Topic{ID: "t"}
	bank := mapBank{}
	var pool []string
	for i, w := range weights {
		oid := fmt.Sprintf("2.2.%d", i+1)
		concept := fmt.Sprintf("c%d", i+1)
		tp.Concepts = append(tp.Concepts, concept)
		tp.Objectives = append(tp.Objectives, questions.Objective{ID: oid, Concepts: []string{concept}, Weight: w})
		for n := range counts[i] {
			id := fmt.Sprintf("%s-%d", oid, n)
			bank[id] = &questions.Question{ID: id, Topic: "t", Concepts: []string{concept}}
			pool = append(pool, id)
		}
	}
	return bank, tp, pool
}

func TestBlueprintDrawsByWeight(t *testing.T) {
	tests := []struct {
		name    string
		weights []int
		counts  []int
		n       int
		want    []int // drawn per objective
	}{
		{"the default exam over six equal objectives", []int{1, 1, 1, 1, 1, 1}, []int{5, 5, 5, 5, 5, 5}, 11, []int{2, 2, 2, 2, 2, 1}},
		{"weights 1:3", []int{1, 3}, []int{10, 10}, 8, []int{2, 6}},
		{"largest remainder", []int{2, 3, 5}, []int{9, 9, 9}, 7, []int{1, 2, 4}},
		{"an objective short of questions gives its seats to the others", []int{1, 1, 1}, []int{1, 6, 6}, 9, []int{1, 4, 4}},
		{"more asked than the pool has", []int{1, 2}, []int{2, 3}, 50, []int{2, 3}},
		{"one question", []int{1, 3}, []int{4, 4}, 1, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bank, tp, pool := blueprintBank(tt.weights, tt.counts)
			ids, quotas := exam.Blueprint(bank, []*questions.Topic{tp}, pool, tt.n, 42)
			got := make([]int, len(quotas))
			drawn := map[string]int{}
			for _, id := range ids {
				drawn[tp.ObjectiveOf(bank[id].Concepts[0])]++
			}
			for i, q := range quotas {
				got[i] = q.Drawn
				if drawn[q.Objective] != q.Drawn {
					t.Errorf("objective %s: quota %d, %d of its questions drawn", q.Objective, q.Drawn, drawn[q.Objective])
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("drawn per objective (-want +got):\n%s", diff)
			}
			again, _ := exam.Blueprint(bank, []*questions.Topic{tp}, pool, tt.n, 42)
			if !cmp.Equal(ids, again) {
				t.Error("the same seed drew other questions")
			}
		})
	}
}
