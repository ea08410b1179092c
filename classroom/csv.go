package classroom

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"
)

// BOM starts the CSV export so spreadsheets read it as UTF-8 and show Thai
// and Vietnamese as written.
const BOM = "\uFEFF"

// CSVHeader names the export's columns.
var CSVHeader = []string{"nickname", "language", "question_number", "question_id", "choice", "correct",
	"explanation", "explanation_score", "band", "points", "elapsed_ms", "answered_at"}

// EscapeCell keeps a spreadsheet from running a cell as a formula: text
// starting with = + - @ (or a tab or carriage return, which some
// spreadsheets skip first) gets a leading apostrophe, which shows as text.
func EscapeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// WriteCSV writes one row per answer, students in join order.
func WriteCSV(w io.Writer, res *Results) error {
	if _, err := io.WriteString(w, BOM); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, a := range res.Answers {
		p := res.Players[a.PlayerID]
		if p == nil {
			continue
		}
		if err := cw.Write([]string{
			EscapeCell(p.Nickname), string(p.Lang), strconv.Itoa(a.QuestionIndex + 1), EscapeCell(a.QuestionID),
			EscapeCell(a.Choice), strconv.FormatBool(a.Correct), EscapeCell(a.Explanation),
			strconv.Itoa(a.ExplanationScore), strconv.Itoa(a.Band), strconv.Itoa(a.Points),
			strconv.FormatInt(a.ElapsedMS, 10), a.CreatedAt.UTC().Format(time.RFC3339),
		}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
