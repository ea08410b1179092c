package classroom

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

// Open records when a student in an assignment first saw a question, for
// the speed bonus, and returns the index of their next unanswered question
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
// returns it once it is on disk. Students who have an examsim identity also
// get it in their history.
func (r *Room) Answer(ctx context.Context, playerID int64, index int, choice, explanation string) (*examsim.ClassAnswer, error) {
	r.mu.Lock()
	p := r.players[playerID]
	if p == nil || p.Kicked {
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	now := r.now()
	var elapsed time.Duration
	switch {
	case r.closedLocked():
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_question_closed")
	case r.sess.Mode == examsim.ModeLive:
		if r.sess.Phase != examsim.PhaseQuestion || index != r.sess.QuestionIndex ||
			now.After(r.sess.QuestionStartedAt.Add(r.limit()+r.hub.cfg.Grace)) {
			r.mu.Unlock()
			return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_question_closed")
		}
		elapsed = now.Sub(r.sess.QuestionStartedAt)
	default:
		if index != r.nextLocked(playerID) {
			r.mu.Unlock()
			return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_already_answered")
		}
		if at, ok := r.opened[answerKey{playerID, index}]; ok {
			elapsed = now.Sub(at)
		}
	}
	key := answerKey{playerID, index}
	if _, done := r.answers[index][playerID]; done || r.pending[key] {
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.ECONFLICT, "class.error_already_answered")
	}
	q, quiz, lang, learnerID := r.qs[index], r.sess.Quiz, p.Lang, p.LearnerID
	tx := TextOf(q, lang)
	if !slices.ContainsFunc(tx.Options, func(o questions.Option) bool { return o.Letter == choice }) {
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.EINVALID, "class.error_bad_choice")
	}
	explanation = strings.TrimSpace(explanation)
	switch {
	case quiz.Explanations == examsim.ExplainOff:
		explanation = ""
	case quiz.Explanations == examsim.ExplainRequired && explanation == "":
		r.mu.Unlock()
		return nil, examsim.Errorf(examsim.EINVALID, "class.error_explanation_required")
	}
	if err := scoring.CheckLength(explanation); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	r.pending[key] = true
	r.mu.Unlock()

	res, err := tx.Rubric.Score(explanation)
	if err != nil {
		r.unpend(key)
		return nil, err
	}
	a := &examsim.ClassAnswer{
		SessionID: r.ID, PlayerID: playerID, QuestionIndex: index, QuestionID: q.ID, Lang: tx.Rubric.Lang,
		Choice: choice, Correct: choice == q.Answer, Explanation: explanation, ExplanationScore: res.Score,
		Band: res.Band, Concepts: res.Hits(), Misconceptions: res.MisconceptionIDs(), RubricVersion: tx.Rubric.Version,
		ElapsedMS: elapsed.Milliseconds(), CreatedAt: now.UTC(),
	}
	if explanation == "" {
		a.ExplanationScore, a.Band, a.Concepts, a.Misconceptions = 0, 0, nil, nil
	}
	a.Points = Points(a.Correct, quiz.Scoring, elapsed, time.Duration(quiz.SecondsPerQuestion)*time.Second,
		quiz.Explanations, a.ExplanationScore)
	if r.sess.Mode == examsim.ModeAssignment && quiz.Scoring == examsim.ScoreSpeed && elapsed == 0 {
		a.Points = Points(a.Correct, examsim.ScoreCorrectness, 0, 0, quiz.Explanations, a.ExplanationScore)
	}
	if a.Lang == "" {
		a.Lang = lang
	}

	if err := r.hub.commit.save(ctx, a); err != nil {
		r.unpend(key)
		return nil, err
	}
	r.mu.Lock()
	delete(r.pending, key)
	r.record(a)
	r.changedLocked(r.sess.Mode == examsim.ModeAssignment)
	for st := range r.streams { // the student's own screens move to "answer received"
		if st.playerID == playerID {
			select {
			case st.c <- struct{}{}:
			default:
			}
		}
	}
	r.mu.Unlock()

	if learnerID != 0 && r.hub.cfg.Attempts != nil {
		at := &examsim.Attempt{LearnerID: learnerID, QuestionID: q.ID, Lang: a.Lang, Choice: a.Choice, Correct: a.Correct,
			Explanation: a.Explanation, Score: a.ExplanationScore, Band: a.Band, Concepts: a.Concepts,
			Misconceptions: a.Misconceptions, RubricVersion: a.RubricVersion, CreatedAt: a.CreatedAt}
		if err := r.hub.cfg.Attempts.CreateAttempt(context.WithoutCancel(ctx), at); err != nil {
			// The answer counts in the room; only the history entry is missing.
			r.hub.cfg.Logger.Warn("classroom: adding an answer to the learner's history", "learner", learnerID, "err", err)
		}
	}
	return a, nil
}

func (r *Room) unpend(k answerKey) {
	r.mu.Lock()
	delete(r.pending, k)
	r.mu.Unlock()
}
