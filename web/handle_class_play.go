package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// handlePlay shows a student their room as it is now: a reload, a new
// network or a reopened tab lands on the current question with their
// points, from the rejoin cookie alone. Without it, the student is sent to
// join (never told the code: that would let anyone skip the code).
func (s *Server) handlePlay(c echo.Context) error {
	room, player, err := s.playerRoom(c)
	if err != nil {
		if examsim.ErrorCode(err) == examsim.EFORBIDDEN {
			return c.Redirect(http.StatusSeeOther, "/join")
		}
		return err
	}
	if lang := examsim.Lang(c.QueryParam("lang")); lang != "" && lang != player.Lang {
		// The language switch: withLanguage has checked the language.
		if err := room.SetLang(c.Request().Context(), player.ID, lang); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, roomURL(room.ID, "/play"))
	}
	v, err := s.playView(c, room.ID, player.ID)
	if err != nil {
		return err
	}
	if after, err := strconv.Atoi(c.QueryParam("after")); err == nil {
		if _, ok := v.Me.Answers[after]; ok && v.Snap.Run.Mode == examsim.ModeAssignment {
			v.After = after
		}
	}
	return Render(c, http.StatusOK, PlayPage(v))
}

// playView gathers a student's page, in the student's own language.
func (s *Server) playView(c echo.Context, roomID, playerID int64) (playView, error) {
	room, err := s.Classroom.Room(c.Request().Context(), roomID)
	if err != nil {
		return playView{}, err
	}
	me, ok := room.Player(playerID)
	if !ok {
		return playView{}, examsim.E(examsim.EFORBIDDEN, "class.error_not_in_room")
	}
	pageOf(c).Lang = me.Player.Lang
	c.Response().Header().Set("Content-Language", string(me.Player.Lang))
	snap := room.Snapshot()
	now := s.now()
	if snap.Run.Mode == examsim.ModeAssignment {
		room.Open(playerID)
		me, _ = room.Player(playerID)
	}
	return newPlayView(snap, me, now), nil
}

// handlePlayAnswer takes a student's answer. The reply, a redirect for a
// plain form or a small JSON acknowledgement for script, is sent only once
// the answer is committed. In a live room it says nothing of correctness:
// that waits for the reveal.
func (s *Server) handlePlayAnswer(c echo.Context) error {
	room, player, err := s.playerRoom(c)
	if err != nil {
		return err
	}
	index, err := strconv.Atoi(c.FormValue("index"))
	if err != nil {
		return examsim.E(examsim.EINVALID, "class.error_question_closed")
	}
	choice, explanation := c.FormValue("choice"), formText(c, "explanation")
	timer := prometheus.NewTimer(s.metrics.answerSeconds) // wall-clock, for /metrics
	a, err := room.Answer(c.Request().Context(), player.ID, index, choice, explanation)
	if err == nil {
		timer.ObserveDuration()
	}
	if err != nil {
		var e *examsim.Error
		if acceptsJSON(c) || !errors.As(err, &e) || (statusOf[e.Code] >= 500 && e.Code != examsim.EUNAVAILABLE) {
			return err
		}
		// A plain form shows the question again with the reason and the text
		// kept, also when the database cannot take the answer right now.
		v, verr := s.playView(c, room.ID, player.ID)
		if verr != nil {
			return err
		}
		v.Error, v.Explanation = pageOf(c).errorText(e), explanation
		if msg, ok := s.unavailableText(c, err); ok {
			v.Error = msg
		}
		return Render(c, statusOf[e.Code], PlayPage(v))
	}
	if acceptsJSON(c) {
		ack := map[string]any{"ok": true, "question": a.QuestionIndex, "choice": a.Choice}
		if room.Run().Mode == examsim.ModeAssignment {
			ack["correct"], ack["points"] = a.Correct, a.Points
		}
		return c.JSON(http.StatusOK, ack)
	}
	next := roomURL(room.ID, "/play")
	if room.Run().Mode == examsim.ModeAssignment {
		next += "?after=" + strconv.Itoa(a.QuestionIndex)
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// tiles are the question's options in the student's own order (v.Order),
// each with its own letter in Own.
func (v playView) tiles(tx *questions.Text) []shownOption {
	return shownOptions(&examsim.ExamItem{Options: v.Order}, tx)
}
