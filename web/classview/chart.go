package classview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// Bar is one option in the answer-distribution chart, in SVG units: the
// chart is 100 wide, a bar 14 high with its gap.
type Bar struct {
	Letter  string
	Count   int
	Percent int
	Right   bool
	Y       int
}

// Bars lays out the distribution chart of a question: one bar per option,
// the right one marked once revealed.
func Bars(q *questions.Question, counts map[string]int, reveal bool) []Bar {
	if q == nil {
		return nil
	}
	tx := q.In(examsim.English)
	total := 0
	for _, n := range counts {
		total += n
	}
	out := make([]Bar, 0, len(tx.Options))
	for i, o := range tx.Options {
		out = append(out, Bar{Letter: o.Letter, Count: counts[o.Letter], Percent: Percent(counts[o.Letter], total),
			Right: reveal && o.Letter == q.Answer, Y: i * 14})
	}
	return out
}

// ChartHeight is the height of the chart's view box.
func ChartHeight(bars []Bar) string { return strconv.Itoa(len(bars)*14 + 2) }

// BarX is where bars start: the shape and letter sit before it.
const BarX = 14

// Width is a bar's length: the chart keeps 30 units for labels.
func (b Bar) Width() string { return strconv.Itoa(max(b.Percent*70/100, 0)) }

// CountX is where the count after the bar starts.
func (b Bar) CountX() string { return strconv.Itoa(BarX + 2 + b.Percent*70/100) }

// Class is a bar's CSS class: the colour of its option's tile, and the
// right answer's outlined once revealed.
func (b Bar) Class() string {
	if b.Right {
		return "bar tile-" + b.Letter + " right"
	}
	return "bar tile-" + b.Letter
}

// Counts says the chart in words, for screen readers: "A: 3, B: 0".
func Counts(bars []Bar) string {
	parts := make([]string, len(bars))
	for i, b := range bars {
		parts[i] = fmt.Sprintf("%s: %d", b.Letter, b.Count)
	}
	return strings.Join(parts, ", ")
}
