package web

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// timelineDays is how many days the attempts-over-time chart covers.
const timelineDays = 30

// historyRows is how many answers the history table lists; the export has
// them all.
const historyRows = 200

// progressView is everything /me shows about a learner's progress.
type progressView struct {
	Attempts  []*examsim.Attempt // newest first
	History   []*examsim.Attempt // the newest historyRows, for the table
	Exams     []*examsim.Exam    // newest first
	DueCount  int
	Concepts  []conceptRow // every concept of the bank, in teaching order (grouped by objective)
	Weakest   []conceptRow
	Days      []dayCount // the last timelineDays days, oldest first
	Readiness readiness
	ExamDay   *examDayView // nil without an exam date ahead
}

// dayCount is one day of the attempts-over-time chart.
type dayCount struct {
	Day            time.Time
	Correct, Wrong int
}

func (d dayCount) Total() int { return d.Correct + d.Wrong }

// readiness is the estimate with the last exam beside it.
type readiness struct {
	examsim.Readiness
	LastExam *examsim.Exam // the last submitted exam, if any
}

// buildProgress works out the progress view from a learner's history;
// now is in the viewer's zone, whose calendar days the chart counts.
func buildProgress(bank *questions.Bank, attempts []*examsim.Attempt, exams []*examsim.Exam, now time.Time) progressView {
	v := progressView{Attempts: attempts, Exams: exams, History: attempts[:min(len(attempts), historyRows)]}
	conceptsOf := map[string][]string{}
	known := map[string]bool{}
	for _, q := range bank.Questions {
		conceptsOf[q.ID] = q.Concepts
	}
	all := map[string]*conceptRow{}
	var order []string
	for _, tp := range bank.Topics {
		for _, c := range tp.ConceptOrder() {
			if all[c] == nil {
				all[c] = newConceptRow(bank, tp.ID, c)
				known[c] = true
				order = append(order, c)
			}
		}
	}

	// Charts count every answer; the estimate counts each question's latest.
	latest := map[string]*examsim.Attempt{}
	for _, a := range attempts { // newest first
		for _, c := range conceptsOf[a.QuestionID] {
			if row := all[c]; row != nil {
				row.Stat.Add(a.Correct, a.Explanation != "", a.EffectiveBand())
			}
		}
		if latest[a.QuestionID] == nil {
			latest[a.QuestionID] = a
		}
	}
	for _, c := range order {
		v.Concepts = append(v.Concepts, *all[c])
	}
	v.Weakest = examsim.Weakest(v.Concepts, func(r conceptRow) examsim.ConceptStat { return r.Stat }, 3)
	v.Days = timeline(attempts, now, timelineDays)
	v.Readiness = readiness{Readiness: examsim.EstimateReadiness(conceptsOf, known, latest, len(bank.Questions), examsim.DefaultPassMark)}
	for _, e := range exams {
		if e.Submitted() {
			v.Readiness.LastExam = e
			break
		}
	}
	return v
}

// timeline counts answers per calendar day of now's zone (the viewer's)
// over the last days days.
func timeline(attempts []*examsim.Attempt, now time.Time, days int) []dayCount {
	zone := now.Location()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, zone)
	first := today.AddDate(0, 0, -(days - 1))
	out := make([]dayCount, days)
	for i := range out {
		out[i].Day = first.AddDate(0, 0, i)
	}
	for _, a := range attempts {
		at := a.CreatedAt.In(zone)
		d := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, zone)
		i := int(math.Round(d.Sub(first).Hours() / 24)) // a daylight-saving day is 23 or 25 hours
		if i >= days && a.CreatedAt.After(now) {
			i = days - 1 // a clock slightly behind the database's: count it today
		}
		if i < 0 || i >= days {
			continue
		}
		if a.Correct {
			out[i].Correct++
		} else {
			out[i].Wrong++
		}
	}
	return out
}

// The chart geometry, in SVG user units; the SVG scales to its box. The
// width is near a phone's, so its 15-unit text stays at least 11 px on a
// 360 px screen (style.css caps the box on wider ones).
const (
	chartWidth   = 380
	timelineH    = 220
	plotLeft     = 40
	plotRight    = 8
	plotTop      = 12
	plotBottom   = 36
	conceptRowH  = 46
	conceptBarW  = 210
	conceptLabel = 18 // baseline of a concept's name's first line within its row
	labelLineH   = 18 // each further line of a concept's name
	labelRunes   = 40 // a concept's name longer than this wraps
)

// niceCeiling rounds n up to 1, 2 or 5 times a power of ten, for an axis.
func niceCeiling(n int) int {
	if n <= 1 {
		return 1
	}
	p := 1
	for {
		for _, m := range []int{1, 2, 5} {
			if m*p >= n {
				return m * p
			}
		}
		p *= 10
	}
}

// timelineBar is one day's bars, in chart coordinates.
type timelineBar struct {
	Day                dayCount
	X, W               float64
	CorrectY, CorrectH float64
	WrongY, WrongH     float64
	Label              string // the day, on every fifth bar
	LabelX             float64
	Anchor             string // the label's text-anchor: the last one ends at the edge, not past it
}

// timelineChart lays out the attempts-over-time chart.
type timelineChart struct {
	Bars    []timelineBar
	Max     int // the y axis' top
	Answers int // over the whole period
	Correct int
	Busiest dayCount
}

func (c timelineChart) plotHeight() float64 { return timelineH - plotTop - plotBottom }

// y returns the chart y of a count.
func (c timelineChart) y(n int) float64 {
	return plotTop + c.plotHeight()*(1-float64(n)/float64(c.Max))
}

func layoutTimeline(ctx context.Context, days []dayCount) timelineChart {
	c := timelineChart{}
	top := 0
	for _, d := range days {
		top = max(top, d.Total())
		c.Answers += d.Total()
		c.Correct += d.Correct
		if d.Total() > c.Busiest.Total() {
			c.Busiest = d
		}
	}
	c.Max = niceCeiling(top)
	slot := float64(chartWidth-plotLeft-plotRight) / float64(max(len(days), 1))
	for i, d := range days {
		b := timelineBar{Day: d, X: plotLeft + float64(i)*slot + slot*0.15, W: slot * 0.7}
		b.CorrectH = c.plotHeight() * float64(d.Correct) / float64(c.Max)
		b.CorrectY = plotTop + c.plotHeight() - b.CorrectH
		b.WrongH = c.plotHeight() * float64(d.Wrong) / float64(c.Max)
		b.WrongY = b.CorrectY - b.WrongH
		if (len(days)-1-i)%5 == 0 {
			b.Label = shortDate(ctx, d.Day)
			b.LabelX, b.Anchor = b.X+b.W/2, "middle"
			if i == len(days)-1 {
				b.LabelX, b.Anchor = chartWidth-plotRight, "end"
			}
		}
		c.Bars = append(c.Bars, b)
	}
	return c
}

// conceptBar is one concept's row in a per-concept chart.
type conceptBar struct {
	Row   conceptRow
	Y     float64  // the row's top
	W     float64  // the bar's width; 0 when there is nothing to draw
	Value string   // the value as text, in the page language
	None  bool     // no data for this concept
	Lines []string // the concept's name, wrapped
}

// Bar is the top of the bar within its row, below the name's lines.
func (b conceptBar) Bar() float64 { return b.Y + 24 + float64(len(b.Lines)-1)*labelLineH }

// wrapLabel breaks a name longer than labelRunes into lines at spaces
// (Thai, which has none between words, at its spaces between phrases), each
// line as full as it can be.
func wrapLabel(name string) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(name) {
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= labelRunes:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}

// barStartsObjective says whether bar i opens a new objective's group.
func barStartsObjective(bars []conceptBar, i int) bool {
	rows := make([]conceptRow, 0, 2)
	if i > 0 {
		rows = append(rows, bars[i-1].Row)
	}
	rows = append(rows, bars[i].Row)
	return startsObjective(rows, len(rows)-1)
}

// layoutConcepts lays out one row per concept: accuracy (of 100) when bands
// is false, else the mean explanation band (of 3).
func layoutConcepts(ctx context.Context, rows []conceptRow, bands bool) []conceptBar {
	out := make([]conceptBar, len(rows))
	y := 0.0
	for i, r := range rows {
		b := conceptBar{Row: r, Y: y, Lines: wrapLabel(conceptName(ctx, r.Topic, r.Stat.Concept))}
		y += conceptRowH + float64(len(b.Lines)-1)*labelLineH
		switch {
		case bands && r.Stat.Explained == 0, !bands && r.Stat.Answered == 0:
			b.None = true
			b.Value = t(ctx, "progress.no_data")
		case bands:
			b.W = conceptBarW * r.Stat.AverageBand() / 3
			b.Value = t(ctx, "progress.band_of", "Band", decimal(ctx, r.Stat.AverageBand()))
		default:
			b.W = conceptBarW * float64(r.Stat.Accuracy()) / 100
			b.Value = strconv.Itoa(r.Stat.Accuracy()) + "% (" + t(ctx, "progress.right_of", "Correct", r.Stat.Correct, "Total", r.Stat.Answered) + ")"
		}
		out[i] = b
	}
	return out
}

// conceptChartHeight is the height of the bars' rows.
func conceptChartHeight(bars []conceptBar) int {
	if len(bars) == 0 {
		return conceptRowH + 4
	}
	last := bars[len(bars)-1]
	return int(last.Bar()) + conceptRowH - 24 + 4
}

// shortDate writes a day the way the page language writes a short date.
func shortDate(ctx context.Context, d time.Time) string {
	switch page(ctx).Lang {
	case examsim.Vietnamese:
		return d.Format("02/01")
	case examsim.Polish:
		return d.Format("02.01")
	case examsim.Thai:
		return d.Format("2/1")
	}
	return d.Format("Jan 2")
}

// coord formats a chart coordinate.
func coord(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }

// Ticks returns the y axis' labelled values: 0, the middle when it is a
// whole number, and the top.
func (c timelineChart) Ticks() []int {
	if c.Max%2 == 0 {
		return []int{0, c.Max / 2, c.Max}
	}
	return []int{0, c.Max}
}

func conceptBarClass(bands bool) string {
	if bands {
		return "bar-band"
	}
	return "bar-accuracy"
}

// reviewLastKey names what the last answer to a review card was like.
func reviewLastKey(r examsim.ReviewRating) string {
	switch r {
	case examsim.RateAgain:
		return "review.last_wrong"
	case examsim.RateHard:
		return "review.last_hard"
	case examsim.RateGood:
		return "review.last_good"
	}
	return "review.last_easy"
}

// daysUntil counts whole days from now until t, at least 1 for a future t.
func daysUntil(now, t time.Time) int {
	return max(int(math.Ceil(t.Sub(now).Hours()/24)), 1)
}

func sessionTitleKey(m examsim.ReviewMode) string {
	if m == examsim.ModeCram {
		return "review.cram_title"
	}
	return "review.session_title"
}

func doneTitleKey(m examsim.ReviewMode) string {
	if m == examsim.ModeCram {
		return "review.cram_done"
	}
	return "review.done_title"
}
