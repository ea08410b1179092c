package examsim

import (
	"context"
	"math"
	"sort"
)

// ResponseSource reads every stored answer, for item statistics.
type ResponseSource interface {
	Responses(ctx context.Context) ([]Response, error)
}

// Item statistics, as Moodle's quiz statistics report computes them, from
// real answers: how hard each question is, how well it separates learners
// who know the topic from those who do not, and how each option draws.
const (
	// TooEasyFacility and TooHardFacility bound a useful item's share of
	// right answers.
	TooEasyFacility = 0.9
	TooHardFacility = 0.2
	// MinDiscrimination is the lowest point-biserial an item should have.
	MinDiscrimination = 0.2
	// GroupShare is the share of an item's respondents in each of the
	// strong and weak groups (Kelley's 27%).
	GroupShare = 0.27
	// MinRespondents is how many learners must have answered an item before
	// it is flagged: below that, one answer swings every figure.
	MinRespondents = 5
	// MinAnonymousHistory is how many questions a learner without an
	// account must have answered before their answers count: a burst of
	// new anonymous visitors must not steer the figures instructors act
	// on. Accounts and learners who joined a class count from the first.
	MinAnonymousHistory = 5
)

// Response is one respondent's answer to one item. A respondent is a
// learner, or an anonymous classroom player.
type Response struct {
	Respondent string
	QuestionID string
	Choice     string // the question's own letter; "" when left unanswered
	Correct    bool
}

// ItemKey is what the statistics need of a question: its key and options.
type ItemKey struct {
	ID      string
	Answer  string
	Options []string // letters
}

// OptionStats is how one option drew.
type OptionStats struct {
	Letter string
	Key    bool
	Picked int // respondents who chose it
	Strong int // of the strong group, how many chose it
	Weak   int // of the weak group
}

// ItemFlag is something wrong with an item, worth an author's look.
type ItemFlag string

const (
	FlagTooEasy           ItemFlag = "too_easy"
	FlagTooHard           ItemFlag = "too_hard"
	FlagLowDiscrimination ItemFlag = "low_discrimination"
	FlagUnusedDistractor  ItemFlag = "unused_distractor"
	FlagStrongPickWrong   ItemFlag = "strong_prefer_distractor"
)

// ItemStats are one item's figures.
type ItemStats struct {
	ID          string
	Respondents int
	Correct     int
	// Discrimination is the point-biserial correlation between answering
	// this item right (1/0) and the respondent's share right on the other
	// items they answered; NaN when either side does not vary.
	Discrimination float64
	StrongN        int // size of the strong group (top 27% by rest score)
	WeakN          int // size of the weak group (bottom 27%)
	Options        []OptionStats
	Flags          []ItemFlag
	// FlaggedOptions are the letters behind the distractor flags.
	UnusedOptions, StrongPickOptions []string
}

// Facility is the share of respondents who answered right.
func (s ItemStats) Facility() float64 {
	if s.Respondents == 0 {
		return math.NaN()
	}
	return float64(s.Correct) / float64(s.Respondents)
}

// ComputeItemStats works out every item's statistics. Only each
// respondent's first response to an item counts (responses are in the order
// given), so retries after reading the feedback do not make items look easy.
func ComputeItemStats(items []ItemKey, responses []Response) []ItemStats {
	first, total := firstResponses(responses)
	out := make([]ItemStats, 0, len(items))
	for _, it := range items {
		out = append(out, itemStatsFor(it, first[it.ID], total))
	}
	return out
}

// firstAnswer is a respondent's first answer to an item.
type firstAnswer struct {
	choice  string
	correct bool
}

// firstResponses keeps each respondent's first response to each item
// (question -> respondent -> answer) and totals those per respondent
// (respondent -> right, answered).
func firstResponses(responses []Response) (map[string]map[string]firstAnswer, map[string][2]int) {
	first := map[string]map[string]firstAnswer{}
	total := map[string][2]int{}
	for _, r := range responses {
		m := first[r.QuestionID]
		if m == nil {
			m = map[string]firstAnswer{}
			first[r.QuestionID] = m
		}
		if _, seen := m[r.Respondent]; seen {
			continue
		}
		m[r.Respondent] = firstAnswer{r.Choice, r.Correct}
		t := total[r.Respondent]
		if r.Correct {
			t[0]++
		}
		t[1]++
		total[r.Respondent] = t
	}
	return first, total
}

// restScored is a respondent's answer to an item with their share right
// on the other items they answered.
type restScored struct {
	who  string
	a    firstAnswer
	rest float64
}

// itemStatsFor works out one item's figures from its respondents' first
// answers and their totals over all items.
func itemStatsFor(it ItemKey, answers map[string]firstAnswer, total map[string][2]int) ItemStats {
	s := ItemStats{ID: it.ID, Discrimination: math.NaN()}
	byLetter := map[string]*OptionStats{}
	for _, l := range it.Options {
		s.Options = append(s.Options, OptionStats{Letter: l, Key: l == it.Answer})
	}
	for i := range s.Options {
		byLetter[s.Options[i].Letter] = &s.Options[i]
	}
	var rs []restScored
	for who, a := range answers {
		s.Respondents++
		if a.correct {
			s.Correct++
		}
		if o := byLetter[a.choice]; o != nil {
			o.Picked++
		}
		t := total[who]
		right, n := t[0], t[1]
		if a.correct {
			right--
		}
		if n-1 > 0 {
			rs = append(rs, restScored{who: who, a: a, rest: float64(right) / float64(n-1)})
		}
	}
	// Strongest first; ties in a fixed order so a report never flickers.
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].rest != rs[j].rest {
			return rs[i].rest > rs[j].rest
		}
		return rs[i].who < rs[j].who
	})
	s.Discrimination = pointBiserial(len(rs), func(i int) (float64, float64) {
		x := 0.0
		if rs[i].a.correct {
			x = 1
		}
		return x, rs[i].rest
	})
	s.countGroupPicks(byLetter, rs)
	s.flag()
	return s
}

// countGroupPicks sizes the strong and weak groups from rs (strongest
// first) and counts each group's picks per option.
func (s *ItemStats) countGroupPicks(byLetter map[string]*OptionStats, rs []restScored) {
	g := int(math.Ceil(GroupShare * float64(len(rs))))
	if 2*g > len(rs) {
		g = len(rs) / 2
	}
	s.StrongN, s.WeakN = g, g
	for i := 0; i < g; i++ {
		if o := byLetter[rs[i].a.choice]; o != nil {
			o.Strong++
		}
		if o := byLetter[rs[len(rs)-1-i].a.choice]; o != nil {
			o.Weak++
		}
	}
}

// flag sets the item's flags from its figures.
func (s *ItemStats) flag() {
	if s.Respondents < MinRespondents {
		return
	}
	f := s.Facility()
	switch {
	case f > TooEasyFacility:
		s.Flags = append(s.Flags, FlagTooEasy)
	case f < TooHardFacility:
		s.Flags = append(s.Flags, FlagTooHard)
	}
	if !math.IsNaN(s.Discrimination) && s.Discrimination < MinDiscrimination {
		s.Flags = append(s.Flags, FlagLowDiscrimination)
	}
	keyStrong := 0
	for _, o := range s.Options {
		if o.Key {
			keyStrong = o.Strong
		}
	}
	for _, o := range s.Options {
		if o.Key {
			continue
		}
		if o.Picked == 0 {
			s.UnusedOptions = append(s.UnusedOptions, o.Letter)
		}
		if o.Strong > keyStrong {
			s.StrongPickOptions = append(s.StrongPickOptions, o.Letter)
		}
	}
	if len(s.UnusedOptions) > 0 {
		s.Flags = append(s.Flags, FlagUnusedDistractor)
	}
	if len(s.StrongPickOptions) > 0 {
		s.Flags = append(s.Flags, FlagStrongPickWrong)
	}
}

// pointBiserial is the Pearson correlation of n pairs; with x a 0/1 item
// score it is the point-biserial. NaN when either side is constant.
func pointBiserial(n int, pair func(int) (x, y float64)) float64 {
	if n < 2 {
		return math.NaN()
	}
	var sx, sy float64
	for i := range n {
		x, y := pair(i)
		sx += x
		sy += y
	}
	mx, my := sx/float64(n), sy/float64(n)
	var cov, vx, vy float64
	for i := range n {
		x, y := pair(i)
		cov += (x - mx) * (y - my)
		vx += (x - mx) * (x - mx)
		vy += (y - my) * (y - my)
	}
	if vx == 0 || vy == 0 {
		return math.NaN()
	}
	return cov / math.Sqrt(vx*vy)
}
