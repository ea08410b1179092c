package questions

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/examsim/examsim"
)

// The cue check's thresholds, all in one place (FORMAT.md, "The cue check",
// explains each). A bank fails the check when, in any language:
const (
	// the key is strictly the longest option in more than this share of
	// questions (chance is 1/options, 25% with four);
	MaxKeyLongestShare = 0.30
	// the key is on average more than this much longer than the mean
	// distractor of its question;
	MaxKeyLengthExcess = 0.05
	// the share of keys that carry a field name exceeds the share of
	// distractors that do by more than this factor AND by more than
	// MinFieldNameGap (so one key among eighty is not a cue);
	MaxFieldNameRatio = 1.25
	MinFieldNameGap   = 0.05
	// two questions' stem+key token sets overlap by this much or more
	// (Jaccard similarity, after dropping the tokens common to the bank).
	MaxStemSimilarity = 0.25
	// A token in more than this share of a language's questions (and in
	// more than two) is too common to tell two questions apart.
	CommonTokenShare = 0.20
	// A title gives the key away when more than this share of its words
	// (those in at most half the language's questions) are in the key
	// beyond what the distractor closest to the title has, and at least
	// MinTitleKeyWords words are.
	MaxTitleKeyShare = 0.5
	MinTitleKeyWords = 2
	// Every distractor opening with the same MinSharedOpeningWords words
	// (MinSharedOpeningThai letters in Thai, written without spaces) while
	// the key shares under half of that opening makes the key the odd one
	// out. Code is left out: options that all open on a JSON payload are a
	// format, not a cue.
	MinSharedOpeningWords = 3
	MinSharedOpeningThai  = 8
)

// FieldNames are the identifiers the lessons teach. A key that carries them
// more often than a distractor does can be picked without understanding.
var FieldNames = []string{
	"isError", "is_error", "errorCategory", "isRetryable", "retryAfter",
	"attempted_query", "partial_results", "alternatives", "description",
	"suggestion", "structuredContent",
}

// CueStats are one language's cue figures.
type CueStats struct {
	Lang       examsim.Lang
	Questions  int // questions with a key and at least one distractor
	KeyLongest int // of them, where the key is strictly the longest option
	// KeyLengthExcess is the mean over questions of
	// len(key)/mean(len(distractors)) - 1, lengths in characters.
	KeyLengthExcess float64
	KeysWithField   int // keys that carry a field name as code
	Distractors     int
	DistrWithField  int // distractors that carry a field name as code
	NearDuplicates  []NearDuplicate
	MostSimilar     NearDuplicate // the closest pair, whatever its similarity
	TitleGiveaways  []TitleGiveaway
	OddOpenings     []OddOpening
}

// TitleGiveaway is a question whose title names its key: the title's words
// are in the key and not in the distractors.
type TitleGiveaway struct {
	Q     *Question
	Words []string // the title's words in the key and in no distractor
	Share float64  // the key's excess over the closest distractor, of the title's words
}

// OddOpening is a question whose distractors all open the same way and
// whose key does not.
type OddOpening struct {
	Q       *Question
	Opening string // the distractors' shared opening, code left out
}

// NearDuplicate is a pair of questions whose stems and keys say nearly the
// same thing in one language.
type NearDuplicate struct {
	A, B       *Question
	Similarity float64
}

// KeyLongestShare is the share of questions whose key is the longest option.
func (c CueStats) KeyLongestShare() float64 { return ratio(c.KeyLongest, c.Questions) }

// KeyFieldShare is the share of keys carrying a field name.
func (c CueStats) KeyFieldShare() float64 { return ratio(c.KeysWithField, c.Questions) }

// DistractorFieldShare is the share of distractors carrying a field name.
func (c CueStats) DistractorFieldShare() float64 { return ratio(c.DistrWithField, c.Distractors) }

// FieldNameCue says whether keys carry field names notably more often.
func (c CueStats) FieldNameCue() bool {
	k, d := c.KeyFieldShare(), c.DistractorFieldShare()
	return k > d*MaxFieldNameRatio && k-d > MinFieldNameGap
}

// Failures words each threshold this language exceeds, one message each.
func (c CueStats) Failures() []Message {
	var out []Message
	lang := string(c.Lang)
	if s := c.KeyLongestShare(); s > MaxKeyLongestShare {
		out = append(out, Msg("check.cue_key_longest", "Lang", lang, "Percent", percent(s), "Count", c.KeyLongest,
			"Total", c.Questions, "Max", percent(MaxKeyLongestShare)))
	}
	if c.KeyLengthExcess > MaxKeyLengthExcess {
		out = append(out, Msg("check.cue_key_length", "Lang", lang, "Excess", fmt.Sprintf("%+.1f%%", 100*c.KeyLengthExcess),
			"Max", fmt.Sprintf("%+.0f%%", 100*MaxKeyLengthExcess)))
	}
	if c.FieldNameCue() {
		out = append(out, Msg("check.cue_field_name", "Lang", lang, "Keys", percent(c.KeyFieldShare()),
			"Fields", strings.Join(FieldNames[:3], ", "), "Distractors", percent(c.DistractorFieldShare())))
	}
	for _, d := range c.NearDuplicates {
		out = append(out, Msg("check.cue_near_duplicate", "Lang", lang, "A", d.A.ID, "B", d.B.ID,
			"Similarity", fmt.Sprintf("%.2f", d.Similarity), "Max", fmt.Sprintf("%.2f", MaxStemSimilarity)))
	}
	for _, g := range c.TitleGiveaways {
		out = append(out, Msg("check.cue_title", "Lang", lang, "ID", g.Q.ID, "Words", strings.Join(g.Words, ", "),
			"Percent", percent(g.Share)))
	}
	for _, o := range c.OddOpenings {
		out = append(out, Msg("check.cue_opening", "Lang", lang, "ID", o.Q.ID, "Opening", quote(o.Opening)))
	}
	return out
}

// percent is a share as a whole percentage, "42%".
func percent(share float64) string { return fmt.Sprintf("%.0f%%", 100*share) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Cues computes the cue figures of every language of the bank.
func Cues(b *Bank) []CueStats {
	var out []CueStats
	for _, lang := range examsim.Langs {
		c := CueStats{Lang: lang}
		var items []*Question
		var excess float64
		for _, q := range b.Questions {
			tx := q.Text(lang)
			if tx == nil {
				continue
			}
			key, distractors := splitKey(tx, q.Answer)
			if key == nil || len(distractors) == 0 {
				continue
			}
			items = append(items, q)
			c.Questions++
			keyLen := optionLength(key.Markdown)
			longest, sum := true, 0
			for _, d := range distractors {
				n := optionLength(d.Markdown)
				sum += n
				if n >= keyLen {
					longest = false
				}
				c.Distractors++
				if carriesFieldName(d.Markdown) {
					c.DistrWithField++
				}
			}
			if longest {
				c.KeyLongest++
			}
			if mean := float64(sum) / float64(len(distractors)); mean > 0 {
				excess += float64(keyLen)/mean - 1
			}
			if carriesFieldName(key.Markdown) {
				c.KeysWithField++
			}
		}
		if c.Questions == 0 {
			continue
		}
		c.KeyLengthExcess = excess / float64(c.Questions)
		c.NearDuplicates, c.MostSimilar = nearDuplicates(items, lang)
		c.TitleGiveaways = titleGiveaways(items, lang)
		c.OddOpenings = oddOpenings(items, lang)
		out = append(out, c)
	}
	return out
}

// splitKey returns a question's keyed option and its distractors.
func splitKey(tx *Text, answer string) (*Option, []*Option) {
	var key *Option
	var distractors []*Option
	for i := range tx.Options {
		if tx.Options[i].Letter == answer {
			key = &tx.Options[i]
		} else {
			distractors = append(distractors, &tx.Options[i])
		}
	}
	return key, distractors
}

// optionLength is the length an option looks on the page: its characters,
// with runs of white space counted once.
func optionLength(md string) int {
	return len([]rune(strings.Join(strings.Fields(md), " ")))
}

var (
	fencedCode = regexp.MustCompile("(?s)(```|~~~).*?(```|~~~)")
	inlineCode = regexp.MustCompile("`[^`\n]+`")
	fieldName  = regexp.MustCompile(`(^|[^A-Za-z0-9_])(` + strings.Join(FieldNames, "|") + `)($|[^A-Za-z0-9_])`)
)

// carriesFieldName says whether an option names a field as code: in a code
// span or a fenced block (a JSON payload). Prose words such as
// "alternatives" or "description" do not count.
func carriesFieldName(md string) bool {
	for _, code := range append(fencedCode.FindAllString(md, -1), inlineCode.FindAllString(fencedCode.ReplaceAllString(md, " "), -1)...) {
		if fieldName.MatchString(code) {
			return true
		}
	}
	return false
}

// nearDuplicates lists the pairs of items whose stem+key token sets have a
// Jaccard similarity of MaxStemSimilarity or more, most similar first, and
// the most similar pair.
func nearDuplicates(items []*Question, lang examsim.Lang) (dups []NearDuplicate, closest NearDuplicate) {
	sets := make([]map[string]bool, len(items))
	df := map[string]int{}
	for i, q := range items {
		tx := q.Text(lang)
		key, _ := splitKey(tx, q.Answer)
		sets[i] = tokens(tx.StemMarkdown + "\n" + key.Markdown)
		for t := range sets[i] {
			df[t]++
		}
	}
	common := max(2, int(math.Ceil(CommonTokenShare*float64(len(items)))))
	for _, s := range sets {
		for t := range s {
			if df[t] > common {
				delete(s, t)
			}
		}
	}
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			d := NearDuplicate{A: items[i], B: items[j], Similarity: jaccard(sets[i], sets[j])}
			if d.Similarity >= MaxStemSimilarity {
				dups = append(dups, d)
			}
			if closest.A == nil || d.Similarity > closest.Similarity {
				closest = d
			}
		}
	}
	sort.SliceStable(dups, func(i, j int) bool { return dups[i].Similarity > dups[j].Similarity })
	return dups, closest
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	both := 0
	for t := range a {
		if b[t] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}

// tokens are a text's lower-cased words; Thai, written without spaces, is
// cut into overlapping three-character pieces instead.
func tokens(s string) map[string]bool {
	out := map[string]bool{}
	word := func(w []rune) {
		if len(w) == 0 {
			return
		}
		if !unicode.Is(unicode.Thai, w[0]) {
			out[strings.ToLower(string(w))] = true
			return
		}
		if len(w) < 3 {
			out[string(w)] = true
		}
		for i := 0; i+3 <= len(w); i++ {
			out[string(w[i:i+3])] = true
		}
	}
	var cur []rune
	for _, r := range s {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
		if inWord && len(cur) > 0 && unicode.Is(unicode.Thai, r) != unicode.Is(unicode.Thai, cur[0]) {
			word(cur)
			cur = cur[:0]
		}
		if inWord {
			cur = append(cur, r)
			continue
		}
		word(cur)
		cur = cur[:0]
	}
	word(cur)
	return out
}

// titleGiveaways lists the items whose title names the key: of the title's
// distinctive words, the key carries more than MaxTitleKeyShare beyond what
// the distractor closest to the title carries, and at least
// MinTitleKeyWords. Words in more than half of the language's questions
// ("error", "tool") are left out: they name the topic, not an option.
func titleGiveaways(items []*Question, lang examsim.Lang) []TitleGiveaway {
	df := map[string]int{}
	for _, q := range items {
		tx := q.Text(lang)
		all := tx.Title + "\n" + tx.StemMarkdown
		for _, o := range tx.Options {
			all += "\n" + o.Markdown
		}
		for t := range tokens(all) {
			df[t]++
		}
	}
	var out []TitleGiveaway
	for _, q := range items {
		tx := q.Text(lang)
		title := map[string]bool{}
		for t := range tokens(tx.Title) {
			if 2*df[t] <= len(items) {
				title[t] = true
			}
		}
		if len(title) == 0 {
			continue
		}
		key, distractors := splitKey(tx, q.Answer)
		inKey := tokens(key.Markdown)
		inDistractor := map[string]bool{}
		closest := 0
		for _, d := range distractors {
			n := 0
			for t := range tokens(d.Markdown) {
				inDistractor[t] = true
				if title[t] {
					n++
				}
			}
			closest = max(closest, n)
		}
		var keyOnly []string
		shared := 0
		for t := range title {
			if inKey[t] {
				shared++
				if !inDistractor[t] {
					keyOnly = append(keyOnly, t)
				}
			}
		}
		excess := shared - closest
		share := float64(excess) / float64(len(title))
		if excess >= MinTitleKeyWords && share > MaxTitleKeyShare {
			sort.Strings(keyOnly)
			out = append(out, TitleGiveaway{Q: q, Words: keyOnly, Share: share})
		}
	}
	return out
}

// oddOpenings lists the items whose distractors share an opening of
// MinSharedOpeningWords words (MinSharedOpeningThai Thai letters) or more,
// code left out, of which the key shares less than half.
func oddOpenings(items []*Question, lang examsim.Lang) []OddOpening {
	var out []OddOpening
	for _, q := range items {
		key, distractors := splitKey(q.Text(lang), q.Answer)
		if len(distractors) < 2 {
			continue
		}
		opening := proseRunes(distractors[0].Markdown)
		for _, d := range distractors[1:] {
			opening = opening[:commonPrefix(opening, proseRunes(d.Markdown))]
		}
		opening = opening[:wordEnd(opening)]
		words, thai := openingSize(opening)
		if words < MinSharedOpeningWords && thai < MinSharedOpeningThai {
			continue
		}
		if 2*commonPrefix(opening, proseRunes(key.Markdown)) < len(opening) {
			out = append(out, OddOpening{Q: q, Opening: strings.TrimSpace(string(opening))})
		}
	}
	return out
}

// proseRunes is an option's text as it opens on the page, lower-cased, code
// dropped and runs of white space counted once.
func proseRunes(md string) []rune {
	md = inlineCode.ReplaceAllString(fencedCode.ReplaceAllString(md, " "), " ")
	return []rune(strings.ToLower(strings.Join(strings.Fields(md), " ")))
}

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// wordEnd cuts a shared opening back to its last whole word, so "in both
// cases, re" (retry / resend) counts three words, not four; Thai, without
// spaces between words, is kept whole.
func wordEnd(r []rune) int {
	if len(r) == 0 || !isWordRune(r[len(r)-1]) || unicode.Is(unicode.Thai, r[len(r)-1]) {
		return len(r)
	}
	for i := len(r) - 1; i >= 0; i-- {
		if !isWordRune(r[i]) {
			return i + 1
		}
	}
	return 0
}

// openingSize counts an opening's words outside Thai and its Thai letters.
func openingSize(r []rune) (words, thai int) {
	inWord := false
	for _, c := range r {
		switch {
		case unicode.Is(unicode.Thai, c):
			thai++
			inWord = false
		case isWordRune(c):
			if !inWord {
				words++
			}
			inWord = true
		default:
			inWord = false
		}
	}
	return words, thai
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }
