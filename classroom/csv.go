package classroom

import (
	"io"
	"strconv"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/csvexport"
)

// CSVHeader names the export's columns. There is a row per student and
// question: status says answered or no_answer, and explained says whether
// there was an explanation, so a missing one (empty score and band) never
// reads as a score of 0.
var CSVHeader = []string{"nickname", "language", "question_number", "question_id", "question_title", "status",
	"choice", "correct", "explained", "explanation", "explanation_score", "explanation_band", "points", "elapsed_ms",
	"answered_at"}

// EscapeCell is the exports' one cell escape, csvexport.EscapeCell.
var EscapeCell = csvexport.EscapeCell

// WriteCSV writes a row per student (join order) and question (quiz
// order). Times are ISO 8601 in loc, with their offset.
func WriteCSV(w io.Writer, res *Results, loc *time.Location) error {
	cw, err := csvexport.NewWriter(w, CSVHeader)
	if err != nil {
		return err
	}
	type key struct {
		player int64
		index  int
	}
	answers := make(map[key]*examsim.ClassAnswer, len(res.Answers))
	for _, a := range res.Answers {
		answers[key{a.PlayerID, a.QuestionIndex}] = a
	}
	for _, p := range res.Roster {
		for i, id := range res.Run.Quiz.QuestionIDs {
			title := ""
			if q := res.Questions[i]; q != nil {
				title = q.In(p.Lang).Title
			}
			row := []string{p.Nickname, string(p.Lang), strconv.Itoa(i + 1), id, title}
			a := answers[key{p.ID, i}]
			switch {
			case a == nil:
				row = append(row, "no_answer", "", "", "false", "", "", "", "0", "", "")
			default:
				score, band := "", ""
				switch {
				case a.Pending:
					score, band = "", "pending" // kept, not yet scored: see examsim rescore
				case Scored(a):
					score, band = strconv.Itoa(a.Score()), strconv.Itoa(a.EffectiveBand())
				}
				row = append(row, "answered", a.Choice, strconv.FormatBool(a.Correct),
					strconv.FormatBool(a.Explanation != ""), a.Explanation, score, band, strconv.Itoa(a.Points),
					strconv.FormatInt(a.ElapsedMS, 10), a.CreatedAt.In(loc).Format(time.RFC3339))
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	return cw.Flush()
}
