package exchange

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/examsim/examsim"
)

// CSV parses a spreadsheet saved as CSV: a header row naming the columns
// (any order, any case), then one row per question and language. Columns:
//
//	stem, answer, a, a_explanation, b, b_explanation, … f, f_explanation (required: stem, answer, a, b)
//	id, lang, title, concepts, difficulty, lesson (optional)
//
// Rows with the same id are one question in several languages. concepts
// are separated by spaces, commas or semicolons.
func CSV(data []byte, opts Options) *Report {
	if r := checkFile(opts, data); r != nil {
		return r
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	var rows [][]string
	var lines []int
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line := 1
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			rep := rowsReport(rows, lines, opts)
			rep.Items = append(rep.Items, Item{Where: where(opts.File, line), Reason: notep("csv_syntax", "Error", err.Error())})
			return rep
		}
		line, _ := r.FieldPos(0)
		rows, lines = append(rows, rec), append(lines, line)
	}
	return rowsReport(rows, lines, opts)
}

// Rows parses rows as CSV does, the first naming the columns; the XLSX
// import reads a sheet into rows and comes here. lines[i] is row i's line.
func Rows(rows [][]string, lines []int, opts Options) *Report {
	return rowsReport(rows, lines, opts)
}

func rowsReport(rows [][]string, lines []int, opts Options) *Report {
	rep := &Report{}
	if len(rows) == 0 {
		return rep
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	var missing []string
	for _, need := range []string{"stem", "answer", "a", "b"} {
		if _, ok := col[need]; !ok {
			missing = append(missing, need)
		}
	}
	if len(missing) > 0 {
		rep.Items = append(rep.Items, Item{Where: where(opts.File, lines[0]), Reason: notep("csv_header", "Columns", strings.Join(missing, ", "))})
		return rep
	}
	byID := map[string]int{} // question id -> its item
	langLine := map[string]int{}
	for i, rec := range rows[1:] {
		get := func(name string) string {
			if j, ok := col[name]; ok && j < len(rec) {
				return strings.TrimSpace(rec[j])
			}
			return ""
		}
		if strings.Join(rec, "") == "" {
			continue
		}
		line := lines[i+1]
		rowOpts := opts
		if l := get("lang"); l != "" {
			lang, ok := examsim.ParseLang(strings.ToLower(l))
			if !ok {
				rep.Items = append(rep.Items, Item{Where: where(opts.File, line), Name: get("id"), Reason: notep("csv_lang", "Lang", l)})
				continue
			}
			rowOpts.Lang = lang
		}
		b := newBuilder(rowOpts, where(opts.File, line), firstNonEmpty(get("id"), get("title")))
		b.text.Title = get("title")
		b.text.Stem = get("stem")
		answer := strings.ToUpper(get("answer"))
		var letters []string
		for k := 0; k < MaxOptions+2; k++ {
			l := string(rune('a' + k)) // #nosec G115 -- a small count
			if t := get(l); t != "" || get(l+"_explanation") != "" {
				b.option(t, get(l+"_explanation"), strings.ToUpper(l) == answer)
				letters = append(letters, strings.ToUpper(l))
			}
		}
		if answer != "" && b.q.Answer == "" {
			rep.add(b.rejected(notep("answer_letter", "Answer", answer, "Letters", strings.Join(letters, ", "))))
			continue
		}
		b.concepts(strings.FieldsFunc(get("concepts"), func(r rune) bool { return r == ',' || r == ';' || r == ' ' }), "csv_concept", "Concept")
		switch d := strings.ToLower(get("difficulty")); d {
		case "":
		case "easy", "medium", "hard":
			b.q.Difficulty = d
		default:
			b.dropped = append(b.dropped, note("csv_difficulty", "Difficulty", d))
		}
		if l := get("lesson"); l != "" {
			if slices.Contains(opts.Concepts, l) {
				b.q.LessonSource = l
			} else {
				b.dropped = append(b.dropped, note("csv_concept", "Concept", l, "Topic", opts.Topic))
			}
		}
		it := b.finish()
		id := get("id")
		if it.Question != nil && id != "" {
			it.Question.ID = Slug(id)
			key := it.Question.ID
			if k, ok := byID[key]; ok {
				rep.mergeLang(k, it, langLine, line)
				continue
			}
			byID[key] = len(rep.Items)
			langLine[key+"/"+string(rowOpts.Lang)] = line
		}
		rep.add(it)
	}
	return rep
}

// mergeLang adds a row's language to the question an earlier row began.
func (rep *Report) mergeLang(k int, it Item, langLine map[string]int, line int) {
	first := rep.Items[k].Question
	q := it.Question
	for lang, tx := range q.Texts {
		key := first.ID + "/" + string(lang)
		switch {
		case first.Texts[lang] != nil:
			it.Question, it.Reason = nil, notep("csv_same_lang", "ID", first.ID, "Lang", string(lang), "Line", langLine[key])
		case first.Answer != q.Answer:
			it.Question, it.Reason = nil, notep("csv_answer_differs", "Answer", q.Answer, "Other", first.Answer)
		default:
			first.Texts[lang] = tx
			langLine[key] = line
			rep.Items[k].Dropped = append(rep.Items[k].Dropped, it.Dropped...)
			return
		}
	}
	rep.Items = append(rep.Items, it)
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
