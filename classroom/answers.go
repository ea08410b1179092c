package classroom

import (
	"context"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// Open records when a student in an assignment first saw a question, for
// the time the answer took (kept in the results; assignments earn no speed
// points), and returns the index of their next unanswered question
// (len(questions) when they are done).
func (r *Room) Open(playerID int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	next := r.nextLocked(playerID)
	if next < len(r.qs) {
		k := answerKey{playerID, next}
		if _, ok := r.opened[k]; !ok {
			r.opened[k] = r.now()
		}
	}
	return next
}

func (r *Room) nextLocked(playerID int64) int {
	for i := range r.qs {
		if _, ok := r.answers[i][playerID]; !ok && !r.pending[answerKey{playerID, i}] {
			return i
		}
	}
	return len(r.qs)
}

// Answer scores a student's answer to question index, commits it, and
// returns it once it is on disk. The store writes it to the student's
// history (and review schedule) in the same group commit.
func (r *Room) Answer(ctx context.Context, playerID int64, index int, choice, explanation string) (*examsim.ClassAnswer, error) {
	ad, err := r.admit(playerID, index, choice, explanation)
	if err != nil {
		if a := r.resent(playerID, index, choice, explanation); a != nil {
			return a, nil
		}
		return nil, err
	}
	a := ad.score()
	if err := r.hub.commit.save(ctx, a); err != nil {
		r.unpend(answerKey{playerID, index})
		return nil, err
	}
	r.accept(a)
	return a, nil
}

// resent returns the committed answer that this one repeats (same question,
// choice and explanation): a student resending after a server error or a
// lost reply gets what was stored, not "already answered". Nil otherwise.
func (r *Room) resent(playerID int64, index int, choice, explanation string) *examsim.ClassAnswer {
	r.mu.Lock()
	defer r.mu.Unlock()
	if index < 0 || index >= len(r.answers) {
		return nil
	}
	a := r.answers[index][playerID]
	if a == nil || a.Choice != choice || (a.Explanation != strings.TrimSpace(explanation) && r.run.Quiz.Explanations != examsim.ExplainOff) {
		return nil
	}
	return a
}

// admission is an answer the room has let in and marked pending, with what
// scoring it needs, read under the room's lock.
type admission struct {
	roomID      int64
	epoch       int64 // the room's lease epoch, which fences the write
	playerID    int64
	index       int
	q           *questions.Question
	tx          *questions.Text
	quiz        examsim.Quiz
	assignment  bool
	lang        examsim.Lang
	learnerID   int64
	choice      string
	explanation string
	elapsed     time.Duration
	at          time.Time
}

// admit checks an answer against the room's rules and, if it may be taken,
// marks it pending so a second tap is refused while the first is written.
func (r *Room) admit(playerID int64, index int, choice, explanation string) (*admission, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.players[playerID]
	if p == nil || p.Kicked {
		return nil, examsim.E(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	if index < 0 || index >= len(r.qs) { // past the last: what a finished assignment's next index is
		return nil, examsim.E(examsim.EINVALID, "class.error_question_closed")
	}
	r.clampStartLocked()
	now := r.now()
	ad := &admission{roomID: r.ID, epoch: r.run.Epoch, playerID: playerID, index: index, quiz: r.run.Quiz, lang: p.Lang, learnerID: p.LearnerID,
		choice: choice, assignment: r.run.Mode == examsim.ModeAssignment, at: now}
	key := answerKey{playerID, index}
	switch {
	case r.closedLocked():
		return nil, examsim.E(examsim.ECONFLICT, "class.error_question_closed")
	case !ad.assignment:
		if r.run.Phase != examsim.PhaseQuestion || index != r.run.QuestionIndex ||
			now.After(r.run.QuestionStartedAt.Add(r.limit()+r.hub.cfg.Grace)) {
			return nil, examsim.E(examsim.ECONFLICT, "class.error_question_closed")
		}
		ad.elapsed = now.Sub(r.run.QuestionStartedAt)
	case index != r.nextLocked(playerID):
		return nil, examsim.E(examsim.ECONFLICT, "class.error_already_answered")
	default:
		if at, ok := r.opened[key]; ok {
			ad.elapsed = now.Sub(at)
		}
	}
	if _, done := r.answers[index][playerID]; done || r.pending[key] {
		return nil, examsim.E(examsim.ECONFLICT, "class.error_already_answered")
	}
	ad.q = r.qs[index]
	ad.tx = ad.q.In(p.Lang)
	ad.explanation = strings.TrimSpace(explanation)
	switch {
	case ad.quiz.Explanations == examsim.ExplainOff:
		ad.explanation = ""
	case ad.quiz.Explanations == examsim.ExplainRequired && ad.explanation == "" && ad.tx.HasOption(choice):
		return nil, examsim.E(examsim.EINVALID, "class.error_explanation_required")
	}
	// The one rule for an answer, as in practice and exams.
	if err := ad.tx.CheckAnswer(choice, ad.explanation, false); err != nil {
		return nil, err
	}
	r.pending[key] = true
	r.publishLocked(p)
	return ad, nil
}

// score grades an admitted answer; it runs outside the room's lock. An
// explanation the scorer fails on leaves the answer scored pending (its
// explanation earns no points until rescored), never refused: the student
// has answered.
func (ad *admission) score() *examsim.ClassAnswer {
	a := &examsim.ClassAnswer{
		RunID: ad.roomID, PlayerID: ad.playerID, QuestionIndex: ad.index,
		Answer: examsim.Answer{QuestionID: ad.q.ID, Lang: ad.tx.Rubric().Lang, Choice: ad.choice, Correct: ad.choice == ad.q.Answer,
			Explanation: ad.explanation, Verdict: scoring.VerdictOf(ad.tx.Rubric(), ad.choice, ad.explanation)},
		ElapsedMS: ad.elapsed.Milliseconds(), CreatedAt: ad.at.UTC(), Epoch: ad.epoch,
	}
	if ad.explanation == "" || len(ad.tx.Rubric().Concepts) == 0 {
		// Nothing was scored: no explanation, or a teacher's question
		// without a rubric, whose explanations the teacher reads unscored.
		a.Verdict = examsim.Verdict{RubricVersion: ad.tx.Rubric().Version}
	}
	explScore := a.Score()
	if a.Pending || ad.explanation == "" {
		explScore = 0
	}
	scoringMode := ad.quiz.Scoring
	if ad.assignment {
		scoringMode = examsim.ScoreCorrectness // self-paced: how fast a student read says nothing
	}
	a.Points = Points(a.Correct, scoringMode, ad.elapsed, time.Duration(ad.quiz.SecondsPerQuestion)*time.Second,
		ad.quiz.Explanations, explScore)
	if a.Lang == "" {
		a.Lang = ad.lang
	}
	return a
}

// accept records a committed answer and wakes who sees it.
func (r *Room) accept(a *examsim.ClassAnswer) {
	r.mu.Lock()
	delete(r.pending, answerKey{a.PlayerID, a.QuestionIndex})
	r.record(a)
	// Students see a live question's answers only once it closes; an
	// answer committed after its question closed (the room's state goes
	// before queued answers) must reach the reveal's counts and the podium.
	closed := r.run.Phase != examsim.PhaseQuestion || r.run.QuestionIndex != a.QuestionIndex
	woken := r.changedLocked(r.run.Mode == examsim.ModeAssignment || closed)
	for _, st := range r.byOwner[a.PlayerID] { // the student's own screens move to "answer received"
		st.wake()
	}
	r.maybeAutoRevealLocked()
	r.mu.Unlock()
	wakeAll(woken)
}

func (r *Room) unpend(k answerKey) {
	r.mu.Lock()
	delete(r.pending, k)
	if p := r.players[k.player]; p != nil {
		r.publishLocked(p)
	}
	r.mu.Unlock()
}
