package exchange

import (
	"regexp"
	"strconv"
	"strings"
)

// GIFT parses Moodle's GIFT text format. Multiple-choice questions (one
// answer marked =, the others ~, each with an optional #feedback) come in;
// every other kind is reported with its line and why it was left out.
func GIFT(data []byte, opts Options) *Report {
	if r := checkFile(opts, data); r != nil {
		return r
	}
	rep := &Report{}
	for _, blk := range giftBlocks(strings.TrimPrefix(string(data), "\ufeff")) {
		rep.add(parseGIFT(blk, opts))
	}
	return rep
}

type giftBlock struct {
	line int
	text string
}

// giftBlocks splits a GIFT file into questions: runs of lines separated by
// blank lines outside braces, comment lines (//) left out.
func giftBlocks(src string) []giftBlock {
	var out []giftBlock
	var cur []string
	start, depth := 0, 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, giftBlock{line: start, text: strings.Join(cur, "\n")})
		}
		cur = nil
	}
	for i, ln := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(ln)
		switch {
		case strings.HasPrefix(trimmed, "//"):
			continue
		case trimmed == "" && depth == 0:
			flush()
			continue
		}
		if len(cur) == 0 {
			start = i + 1
		}
		cur = append(cur, ln)
		for j := 0; j < len(ln); j++ {
			switch ln[j] {
			case '\\':
				j++
			case '{':
				depth++
			case '}':
				depth = max(depth-1, 0)
			}
		}
	}
	flush()
	return out
}

var (
	giftFormat = regexp.MustCompile(`^\[(html|moodle|plain|markdown)\]`)
	giftTF     = regexp.MustCompile(`^(?i:T|F|TRUE|FALSE)\s*(#|$)`)
	giftWeight = regexp.MustCompile(`^%(-?[0-9]+(?:\.[0-9]+)?)%`)
)

func parseGIFT(blk giftBlock, opts Options) Item {
	s := strings.TrimSpace(blk.text)
	at := where(opts.File, blk.line)
	if strings.HasPrefix(s, "$CATEGORY:") {
		return Item{Where: at, Name: strings.TrimSpace(strings.TrimPrefix(s, "$CATEGORY:")), Reason: notep("category")}
	}
	name := ""
	if strings.HasPrefix(s, "::") {
		if end := unescapedIndex(s[2:], "::"); end >= 0 {
			name = strings.TrimSpace(giftUnescape(s[2 : 2+end]))
			s = strings.TrimSpace(s[2+end+2:])
		}
	}
	format := "moodle"
	if m := giftFormat.FindStringSubmatch(s); m != nil {
		format, s = m[1], strings.TrimSpace(s[len(m[0]):])
	}
	b := newBuilder(opts, at, name)
	open := unescapedIndex(s, "{")
	if open < 0 {
		b.text.Stem = s
		return b.rejected(notep("description"))
	}
	closeAt := unescapedIndex(s[open:], "}")
	if closeAt < 0 {
		return b.rejected(notep("unclosed"))
	}
	closeAt += open
	b.text.Stem = b.giftText(format, s[:open], "stem")
	if strings.TrimSpace(s[closeAt+1:]) != "" {
		return b.rejected(notep("missingword"))
	}
	if r := b.giftAnswers(format, strings.TrimSpace(s[open+1:closeAt])); r != nil {
		return b.rejected(r)
	}
	return b.finish()
}

// rejected is the item for a question left out for reason.
func (b *builder) rejected(reason *Note) Item {
	it := b.item
	if it.Name == "" {
		it.Name = titleFrom("", strings.TrimSpace(b.text.Stem))
	}
	it.Reason = reason
	return it
}

// giftAnswers reads the text between the braces into options.
func (b *builder) giftAnswers(format, ans string) *Note {
	if i := unescapedIndex(ans, "####"); i >= 0 {
		if strings.TrimSpace(ans[i+4:]) != "" {
			b.dropped = append(b.dropped, note("general_feedback"))
		}
		ans = strings.TrimSpace(ans[:i])
	}
	switch {
	case ans == "":
		return notep("essay")
	case strings.HasPrefix(ans, "#"):
		return notep("numeric")
	case giftTF.MatchString(ans):
		return notep("truefalse")
	}
	type answer struct {
		marker byte
		body   string
	}
	var answers []answer
	for i := 0; i < len(ans); i++ {
		switch c := ans[i]; {
		case c == '\\':
			if len(answers) > 0 {
				answers[len(answers)-1].body += ans[i:min(i+2, len(ans))]
			}
			i++
		case c == '=' || c == '~':
			answers = append(answers, answer{marker: c})
		case len(answers) > 0:
			answers[len(answers)-1].body += string(c)
		}
	}
	wrong := 0
	for _, a := range answers {
		if a.marker == '~' {
			wrong++
		}
		if unescapedIndex(a.body, "->") >= 0 {
			return notep("matching")
		}
	}
	if wrong == 0 {
		return notep("shortanswer")
	}
	for _, a := range answers {
		body, right := strings.TrimSpace(a.body), a.marker == '='
		if m := giftWeight.FindStringSubmatch(body); m != nil {
			body = strings.TrimSpace(body[len(m[0]):])
			w, _ := strconv.ParseFloat(m[1], 64)
			right = right || w >= 100
			if !right && w > 0 {
				b.dropped = append(b.dropped, note("partial_credit", "Letter", string(rune('A'+len(b.text.Options))), "Weight", m[1])) // #nosec G115 -- a small count
			}
		}
		feedback := ""
		if i := unescapedIndex(body, "#"); i >= 0 {
			body, feedback = body[:i], body[i+1:]
		}
		letter := string(rune('A' + len(b.text.Options))) // #nosec G115 -- a small count
		b.option(b.giftText(format, body, "option "+letter), b.giftText(format, feedback, "option "+letter+" feedback"), right)
	}
	return nil
}

// giftText unescapes a GIFT text and turns HTML into Markdown.
func (b *builder) giftText(format, s, field string) string {
	s = giftUnescape(strings.TrimSpace(s))
	if format == "html" || (format == "moodle" && looksLikeHTML(s)) {
		return b.fromHTML(s, field)
	}
	return s
}

func giftUnescape(s string) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == 'n' {
				out.WriteByte('\n')
				continue
			}
			if !strings.ContainsRune("~=#{}:", rune(s[i])) {
				out.WriteByte('\\')
			}
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// unescapedIndex is strings.Index ignoring occurrences escaped with a backslash.
func unescapedIndex(s, sub string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], sub) {
			return i
		}
	}
	return -1
}
