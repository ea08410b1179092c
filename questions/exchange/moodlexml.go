package exchange

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
)

type moodleText struct {
	Format string `xml:"format,attr"`
	Text   string `xml:"text"`
}

type moodleQuestion struct {
	Type            string     `xml:"type,attr"`
	Name            moodleText `xml:"name"`
	QuestionText    moodleText `xml:"questiontext"`
	GeneralFeedback moodleText `xml:"generalfeedback"`
	Single          string     `xml:"single"`
	Answers         []struct {
		Fraction string     `xml:"fraction,attr"`
		Format   string     `xml:"format,attr"`
		Text     string     `xml:"text"`
		Feedback moodleText `xml:"feedback"`
	} `xml:"answer"`
	Tags     []string `xml:"tags>tag>text"`
	Category string   `xml:"category>text"`
}

// MoodleXML parses Moodle's XML question format. multichoice questions
// with exactly one answer at fraction 100 come in; every other type, and a
// question breaking the bank's rules, is reported with its line and name.
// Tags that are concept ids of the topic tag the question.
func MoodleXML(data []byte, opts Options) *Report {
	if r := checkFile(opts, data); r != nil {
		return r
	}
	rep := &Report{}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return rep
		}
		if err != nil {
			rep.Items = append(rep.Items, Item{Where: where(opts.File, syntaxLine(err, d)), Reason: notep("xml_syntax", "Error", err.Error())})
			return rep
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "question" {
			continue
		}
		var mq moodleQuestion
		if err := d.DecodeElement(&mq, &se); err != nil {
			rep.Items = append(rep.Items, Item{Where: where(opts.File, syntaxLine(err, d)), Reason: notep("xml_syntax", "Error", err.Error())})
			return rep
		}
		rep.add(parseMoodle(&mq, opts, where(opts.File, line)))
	}
}

func syntaxLine(err error, d *xml.Decoder) int {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Line
	}
	line, _ := d.InputPos()
	return line
}

func parseMoodle(mq *moodleQuestion, opts Options, at string) Item {
	name := strings.TrimSpace(mq.Name.Text)
	if mq.Type == "category" {
		return Item{Where: at, Name: strings.TrimSpace(mq.Category), Reason: notep("category")}
	}
	b := newBuilder(opts, at, name)
	b.text.Title = name
	b.text.Stem = b.moodleText(mq.QuestionText.Format, mq.QuestionText.Text, "stem")
	if mq.Type != "multichoice" {
		return b.rejected(notep("qtype", "Type", mq.Type))
	}
	if strings.TrimSpace(mq.GeneralFeedback.Text) != "" {
		b.dropped = append(b.dropped, note("general_feedback"))
	}
	for _, a := range mq.Answers {
		letter := string(rune('A' + len(b.text.Options))) // #nosec G115 -- a small count
		fraction, _ := strconv.ParseFloat(strings.TrimSpace(a.Fraction), 64)
		if fraction > 0 && fraction < 100 {
			b.dropped = append(b.dropped, note("partial_credit", "Letter", letter, "Weight", a.Fraction))
		}
		b.option(b.moodleText(a.Format, a.Text, "option "+letter),
			b.moodleText(a.Feedback.Format, a.Feedback.Text, "option "+letter+" feedback"), fraction >= 100)
	}
	b.concepts(mq.Tags, "unknown_tag", "Tag")
	return b.finish()
}

// moodleText turns a Moodle text into Markdown by its format.
func (b *builder) moodleText(format, s, field string) string {
	switch format {
	case "markdown", "plain_text":
		return strings.TrimSpace(s)
	case "", "html", "moodle_auto_format":
		if format != "html" && !looksLikeHTML(s) {
			return strings.TrimSpace(s)
		}
	}
	return b.fromHTML(s, field)
}
