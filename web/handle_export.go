package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/csvexport"
	"github.com/examsim/examsim/internal/jsonslice"
)

// exportDoc is everything examsim keeps about a learner, as the JSON export
// writes it.
type exportDoc struct {
	ExportedAt  time.Time       `json:"exported_at"`
	Learner     exportLearner   `json:"learner"`
	Attempts    []exportAttempt `json:"attempts"`
	Exams       []exportExam    `json:"exams"`
	ReviewCards []exportCard    `json:"review_cards"`
}

type exportLearner struct {
	ID        int64     `json:"id"`
	Username  string    `json:"username,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

type exportAttempt struct {
	ID             int64                `json:"id"`
	CreatedAt      time.Time            `json:"created_at"`
	Source         examsim.Source       `json:"source"`
	ExamID         int64                `json:"exam_id,omitempty"`
	QuestionID     string               `json:"question_id"`
	QuestionTitle  string               `json:"question_title"`
	Lang           examsim.Lang         `json:"lang"`
	Choice         string               `json:"choice"`
	Correct        bool                 `json:"correct"`
	Explanation    string               `json:"explanation"`
	Score          int                  `json:"score"`
	Band           int                  `json:"band"` // the band that counts: a teacher's regrade, else the automatic one
	AutoBand       int                  `json:"auto_band"`
	Regraded       bool                 `json:"regraded"`
	TeacherNote    string               `json:"teacher_note,omitempty"`  // written with the regrade
	ScorePending   bool                 `json:"score_pending,omitempty"` // kept, not yet scored
	Concepts       []examsim.ConceptHit `json:"concepts"`
	Misconceptions []string             `json:"misconceptions"`
	RubricVersion  int                  `json:"rubric_version"`
}

type exportExam struct {
	ID            int64            `json:"id"`
	StartedAt     time.Time        `json:"started_at"`
	Deadline      time.Time        `json:"deadline"`
	SubmittedAt   *time.Time       `json:"submitted_at"`
	AutoSubmitted bool             `json:"auto_submitted"`
	Topics        []string         `json:"topics"`
	Concept       string           `json:"concept,omitempty"`
	MissedOnly    bool             `json:"missed_only"`
	PassMark      int              `json:"pass_mark"`
	Correct       int              `json:"correct"`
	Questions     int              `json:"questions"`
	Percent       int              `json:"percent"`
	Passed        bool             `json:"passed"`
	Items         []exportExamItem `json:"items"`
}

type exportExamItem struct {
	Position     int      `json:"position"`
	QuestionID   string   `json:"question_id"`
	OptionOrder  []string `json:"option_order"`
	Choice       string   `json:"choice"`
	Flagged      bool     `json:"flagged"`
	Explanation  string   `json:"explanation"`
	Correct      bool     `json:"correct"`
	Score        int      `json:"score"`
	Band         int      `json:"band"` // the band that counts, as for attempts
	AutoBand     int      `json:"auto_band"`
	Regraded     bool     `json:"regraded"`
	ScorePending bool     `json:"score_pending,omitempty"`
}

type exportCard struct {
	QuestionID string    `json:"question_id"`
	Stability  float64   `json:"stability_days"`
	Difficulty float64   `json:"difficulty"`
	Reps       int       `json:"reps"`
	Lapses     int       `json:"lapses"`
	LastRating int       `json:"last_rating"`
	Due        time.Time `json:"due"`
	ReviewedAt time.Time `json:"reviewed_at"`
}

// export gathers the current learner's data. A visitor who has done
// nothing yet gets an empty export.
func (s *Server) export(c echo.Context) (*exportDoc, error) {
	doc := &exportDoc{ExportedAt: s.now(), Attempts: []exportAttempt{}, Exams: []exportExam{}, ReviewCards: []exportCard{}}
	l := pageOf(c).Learner
	if l == nil {
		return doc, nil
	}
	ctx := c.Request().Context()
	doc.Learner = exportLearner{ID: l.ID, Username: l.Username, CreatedAt: l.CreatedAt}
	attempts, err := s.Attempts.ListAttempts(ctx, l.ID, 1_000_000)
	if err != nil {
		return nil, err
	}
	title := func(id string) string {
		if q, ok := s.Bank.Question(id); ok {
			return s.text(c, q).Title
		}
		return ""
	}
	for i := len(attempts) - 1; i >= 0; i-- { // oldest first, as a history reads
		a := attempts[i]
		doc.Attempts = append(doc.Attempts, exportAttempt{
			ID: a.ID, CreatedAt: a.CreatedAt, Source: a.Source, ExamID: a.ExamID, QuestionID: a.QuestionID,
			QuestionTitle: title(a.QuestionID), Lang: a.Lang, Choice: a.Choice, Correct: a.Correct,
			Explanation: a.Explanation, Score: a.Score(), Band: a.EffectiveBand(), AutoBand: a.Band, Regraded: a.Human != nil,
			TeacherNote:    teacherNoteText(a.Human),
			ScorePending:   a.Pending,
			Concepts:       jsonslice.NonNil(a.Concepts),
			Misconceptions: jsonslice.NonNil(a.Misconceptions), RubricVersion: a.RubricVersion,
		})
	}
	exams, err := s.Exams.ListExams(ctx, l.ID, 1_000_000)
	if err != nil {
		return nil, err
	}
	for i := len(exams) - 1; i >= 0; i-- {
		e := exams[i]
		x := exportExam{ID: e.ID, StartedAt: e.StartedAt, Deadline: e.Deadline, AutoSubmitted: e.AutoSubmitted,
			Topics: e.Topics, Concept: e.Concept, MissedOnly: e.MissedOnly, PassMark: e.PassMark, Correct: e.Correct,
			Questions: len(e.Items), Items: []exportExamItem{}}
		if e.Submitted() {
			at := e.SubmittedAt
			x.SubmittedAt, x.Percent, x.Passed = &at, e.Percent(), e.Passed()
		}
		for _, it := range e.Items {
			x.Items = append(x.Items, exportExamItem{Position: it.Position, QuestionID: it.QuestionID, OptionOrder: it.Options,
				Choice: it.Choice, Flagged: it.Flagged, Explanation: it.Explanation, Correct: it.Correct, Score: it.Score(),
				Band: it.EffectiveBand(), AutoBand: it.Band, Regraded: it.Human != nil, ScorePending: it.Pending})
		}
		doc.Exams = append(doc.Exams, x)
	}
	cards, err := s.Reviews.ListReviewCards(ctx, l.ID)
	if err != nil {
		return nil, err
	}
	for _, card := range cards {
		doc.ReviewCards = append(doc.ReviewCards, exportCard{QuestionID: card.QuestionID, Stability: card.Stability,
			Difficulty: card.Difficulty, Reps: card.Reps, Lapses: card.Lapses, LastRating: int(card.LastRating),
			Due: card.Due, ReviewedAt: card.ReviewedAt})
	}
	return doc, nil
}

func attachment(c echo.Context, name, contentType string) {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, contentType)
	h.Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
}

// handleExportJSON downloads everything examsim keeps about the learner.
func (s *Server) handleExportJSON(c echo.Context) error {
	doc, err := s.export(c)
	if err != nil {
		return err
	}
	attachment(c, "examsim-history.json", "application/json; charset=utf-8")
	c.Response().WriteHeader(http.StatusOK)
	enc := json.NewEncoder(c.Response())
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// csvHeader names the CSV export's columns.
var csvHeader = []string{"attempt_id", "created_at", "source", "exam_id", "question_id", "question_title", "lang",
	"choice", "correct", "score", "band", "explanation", "auto_band", "regraded"}

// handleExportCSV downloads the learner's answers as CSV for a spreadsheet:
// UTF-8 with a byte order mark, so Excel reads Thai and Vietnamese right.
func (s *Server) handleExportCSV(c echo.Context) error {
	doc, err := s.export(c)
	if err != nil {
		return err
	}
	attachment(c, "examsim-history.csv", "text/csv; charset=utf-8")
	c.Response().WriteHeader(http.StatusOK)
	return writeHistoryCSV(c.Response(), doc.Attempts)
}

func writeHistoryCSV(w interface{ Write([]byte) (int, error) }, attempts []exportAttempt) error {
	cw, err := csvexport.NewWriter(w, csvHeader)
	if err != nil {
		return err
	}
	for _, a := range attempts {
		examID := ""
		if a.ExamID != 0 {
			examID = strconv.FormatInt(a.ExamID, 10)
		}
		row := []string{strconv.FormatInt(a.ID, 10), a.CreatedAt.UTC().Format(time.RFC3339), string(a.Source), examID,
			a.QuestionID, a.QuestionTitle, string(a.Lang), a.Choice, strconv.FormatBool(a.Correct),
			strconv.Itoa(a.Score), strconv.Itoa(a.Band), a.Explanation, strconv.Itoa(a.AutoBand), strconv.FormatBool(a.Regraded)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// csvCell is the exports' one cell escape, csvexport.EscapeCell.
var csvCell = csvexport.EscapeCell

// teacherNoteText is the note written with a regrade, "" without one.
func teacherNoteText(h *examsim.HumanGrade) string {
	if h == nil {
		return ""
	}
	return h.Note
}
