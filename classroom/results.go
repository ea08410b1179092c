package classroom

import (
	"context"
	"sort"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// Results is a run's outcome, read from the store (not the room's
// memory), so it is exactly what was committed.
type Results struct {
	Run       *examsim.ClassRun
	Questions []*questions.Question
	Players   map[int64]*examsim.Player
	Roster    []*examsim.Player      // the players who count, in join order
	Answers   []*examsim.ClassAnswer // by question, then commit order
	Students  []StudentResult        // best first
	Items     []QuestionResult
	Concepts  []ConceptResult
}

// StudentResult is one student's totals.
type StudentResult struct {
	Player         *examsim.Player
	Points         int
	Answered       int
	Correct        int
	Explained      int // answers with an explanation
	AvgExplanation int // mean explanation score of those, 0..100
}

// QuestionResult is how the room did on one question.
type QuestionResult struct {
	Index    int
	Question *questions.Question
	Counts   map[string]int
	Answered int
	Correct  int
	// AvgBand is the mean explanation band of the explained answers, -1 when none.
	AvgBand float64
	// TopMisconception is the misconception found most often, "" when none.
	TopMisconception      string
	TopMisconceptionCount int
}

// ConceptResult is how the room did on the questions tagged with a concept.
type ConceptResult struct {
	Topic, Concept string
	Answered       int
	Correct        int
	// Explained counts the explanations that could have shown the concept;
	// Hit those where the rubric found it.
	Explained, Hit int
}

// LoadResults reads a run's results.
func LoadResults(ctx context.Context, store examsim.ClassroomService, bank *questions.Bank, runID int64) (*Results, error) {
	run, err := store.FindRun(ctx, runID)
	if err != nil {
		return nil, err
	}
	players, err := store.ListPlayers(ctx, runID)
	if err != nil {
		return nil, err
	}
	answers, err := store.ListAnswers(ctx, runID)
	if err != nil {
		return nil, err
	}
	t := newResultsTally(run, players, bank)
	for _, a := range answers {
		t.add(a)
	}
	return t.finish(), nil
}

type conceptKey struct{ topic, concept string }

// resultsTally adds a run's answers up into its Results.
type resultsTally struct {
	res          *Results
	students     map[int64]*StudentResult
	order        []int64          // students in join order
	bands        [][2]int         // per question: sum, count
	miscon       []map[string]int // per question: misconception -> times found
	concepts     map[conceptKey]*ConceptResult
	conceptOrder []conceptKey
}

// newResultsTally starts the tally with the quiz's questions and the
// players who count.
func newResultsTally(run *examsim.ClassRun, players []*examsim.Player, bank *questions.Bank) *resultsTally {
	res := &Results{Run: run, Players: map[int64]*examsim.Player{}}
	for _, id := range run.Quiz.QuestionIDs {
		q, _ := bank.Question(id) // nil when the bank lost it since; its answers still count
		res.Questions = append(res.Questions, q)
	}
	t := &resultsTally{res: res, students: map[int64]*StudentResult{}, concepts: map[conceptKey]*ConceptResult{},
		bands: make([][2]int, len(res.Questions)), miscon: make([]map[string]int, len(res.Questions))}
	for _, p := range players {
		if p.Kicked {
			continue
		}
		res.Players[p.ID] = p
		res.Roster = append(res.Roster, p)
		t.students[p.ID] = &StudentResult{Player: p}
		t.order = append(t.order, p.ID)
	}
	res.Items = make([]QuestionResult, len(res.Questions))
	for i, q := range res.Questions {
		res.Items[i] = QuestionResult{Index: i, Question: q, Counts: map[string]int{}, AvgBand: -1}
	}
	return t
}

// add counts one answer for its student, its question and the question's
// concepts.
func (t *resultsTally) add(a *examsim.ClassAnswer) {
	res := t.res
	st := t.students[a.PlayerID]
	if st == nil || a.QuestionIndex < 0 || a.QuestionIndex >= len(res.Items) {
		return // a kicked player's answers do not count
	}
	res.Answers = append(res.Answers, a)
	st.Points += a.Points
	st.Answered++
	it := &res.Items[a.QuestionIndex]
	it.Counts[a.Choice]++
	it.Answered++
	if a.Correct {
		st.Correct++
		it.Correct++
	}
	if Scored(a) && !a.Pending {
		st.Explained++
		st.AvgExplanation += a.Score()
		t.bands[a.QuestionIndex][0] += a.EffectiveBand() // a teacher's regrade counts
		t.bands[a.QuestionIndex][1]++
		for _, m := range a.Misconceptions {
			if t.miscon[a.QuestionIndex] == nil {
				t.miscon[a.QuestionIndex] = map[string]int{}
			}
			t.miscon[a.QuestionIndex][m]++
		}
	}
	if q := res.Questions[a.QuestionIndex]; q != nil {
		t.addConcepts(q, a)
	}
}

// addConcepts counts a for each concept its question is tagged with.
func (t *resultsTally) addConcepts(q *questions.Question, a *examsim.ClassAnswer) {
	hits := map[string]bool{}
	for _, c := range a.Concepts {
		hits[c.ID] = hits[c.ID] || c.Hit
	}
	for _, c := range q.Concepts {
		k := conceptKey{q.Topic, c}
		cr := t.concepts[k]
		if cr == nil {
			cr = &ConceptResult{Topic: q.Topic, Concept: c}
			t.concepts[k] = cr
			t.conceptOrder = append(t.conceptOrder, k)
		}
		cr.Answered++
		if a.Correct {
			cr.Correct++
		}
		if Scored(a) && !a.Pending {
			cr.Explained++
			if a.Correct && a.EffectiveBand() >= 2 {
				cr.Hit++ // the explanation carried the question's key point
			}
		}
	}
}

// finish works out the averages and top misconceptions, ranks the
// students and returns the Results.
func (t *resultsTally) finish() *Results {
	res := t.res
	for i := range res.Items {
		if t.bands[i][1] > 0 {
			res.Items[i].AvgBand = float64(t.bands[i][0]) / float64(t.bands[i][1])
		}
		ids := make([]string, 0, len(t.miscon[i]))
		for id := range t.miscon[i] {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			if n := t.miscon[i][id]; n > res.Items[i].TopMisconceptionCount {
				res.Items[i].TopMisconception, res.Items[i].TopMisconceptionCount = id, n
			}
		}
	}
	for _, id := range t.order {
		st := t.students[id]
		if st.Explained > 0 {
			st.AvgExplanation = (st.AvgExplanation + st.Explained/2) / st.Explained
		}
		res.Students = append(res.Students, *st)
	}
	sort.SliceStable(res.Students, func(i, j int) bool { return res.Students[i].Points > res.Students[j].Points })
	for _, k := range t.conceptOrder {
		res.Concepts = append(res.Concepts, *t.concepts[k])
	}
	return res
}
