package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/classroom"
	"github.com/examsim/examsim/questions"
)

// handleHostPreview shows one bank question as the projector shows it in a
// live room, mid-question, so a teacher can check a question reads from
// the back of the hall before using it. Nothing is stored and no room is
// opened; the screen has no event stream.
func (s *Server) handleHostPreview(c echo.Context) error {
	if _, err := s.teacher(c); err != nil {
		return err
	}
	q, ok := s.Bank.Question(c.Param("qid"))
	if !ok {
		return examsim.E(examsim.ENOTFOUND, "error.question_not_found", "ID", c.Param("qid"))
	}
	now := s.now()
	return Render(c, http.StatusOK, HostPage(projectorPreview(c, q, now)))
}

// projectorPreview is a room of one question, started now, with no students.
func projectorPreview(c echo.Context, q *questions.Question, now time.Time) hostView {
	secs := 60
	quiz := examsim.Quiz{Title: textOf(c.Request().Context(), q).Title, QuestionIDs: []string{q.ID}, SecondsPerQuestion: secs, Leaderboard: true}
	snap := &classroom.Snapshot{
		Run:       examsim.ClassRun{Mode: examsim.ModeLive, Quiz: quiz, Phase: examsim.PhaseQuestion, QuestionIndex: 0, QuestionStartedAt: now},
		Questions: []*questions.Question{q},
		Question:  q,
		Deadline:  now.Add(time.Duration(secs) * time.Second),
		Counts:    map[string]int{},
	}
	return hostView{Snap: snap, Now: now, Preview: true}
}
