package web_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// plainOption is an option's text as a page shows it, without markup.
func plainOption(t *testing.T, o questions.Option) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(o.HTML()))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(doc.Text()), " ")
}

// TestClassroomShuffledOptions plays a live question to six students: their
// phones show the options in orders of their own (the same again on a
// reload), each option under its own letter, and a student who taps the
// tile with the key's text is counted right in the results, the CSV and the
// item statistics, whatever place the tile had on their phone.
func TestClassroomShuffledOptions(t *testing.T) {
	a := newClassApp(t)
	host := a.account("teacher", examsim.RoleInstructor)
	path, code := a.startRun(host, "off")
	names := []string{"Ana", "Bao", "Chai", "Dorota", "Emil", "Fah"}
	var students []*client
	for _, n := range names {
		students = append(students, a.join(code, n, "en"))
	}
	control(t, host, path, "start", -1)
	q, _ := a.Bank.Question(classQuestions[0])
	tx := q.Text(examsim.English)
	textOf := map[string]string{} // own letter -> text
	for _, o := range tx.Options {
		textOf[o.Letter] = plainOption(t, o)
	}
	wrong := wrongOption(a, q.ID)

	orders := map[string]bool{}
	for i, c := range students {
		p := c.get(path + "/play")
		var order []string
		tap := map[string]string{} // text -> the value its tile sends
		p.doc.Find("button.choice").Each(func(_ int, b *goquery.Selection) {
			own := b.AttrOr("data-choice", "")
			shown := strings.Join(strings.Fields(b.Find(".option-text").Text()), " ")
			order = append(order, own)
			tap[shown] = b.AttrOr("value", "")
			// The tile keeps the option's own letter, shape and colour.
			if shown != textOf[own] || strings.TrimSpace(b.Find(".letter").Text()) != own || b.Find(".shape-"+own).Length() != 1 || !b.HasClass("tile-"+own) {
				t.Errorf("%s: tile %s shows %q (letter %q), not its own option %q", names[i], own, shown, b.Find(".letter").Text(), textOf[own])
			}
		})
		if len(order) != len(tx.Options) {
			t.Fatalf("%s sees %d tiles", names[i], len(order))
		}
		key := strings.Join(order, "")
		orders[key] = true
		if again := c.get(path + "/play"); strings.Join(again.doc.Find("button.choice").Map(func(_ int, b *goquery.Selection) string {
			return b.AttrOr("data-choice", "")
		}), "") != key {
			t.Errorf("%s: a reload shows another order than %s", names[i], key)
		}
		// Even-numbered students tap the key's text, the others a wrong option's.
		want := textOf[q.Answer]
		if i%2 == 1 {
			want = textOf[wrong]
		}
		if ack := answer(t, c, path, 0, tap[want], ""); ack.status != http.StatusOK {
			t.Fatalf("%s answers %q: %d %s", names[i], tap[want], ack.status, ack.body)
		}
	}
	if len(orders) < 2 {
		t.Errorf("six students all see the options in one order: %v", orders)
	}
	control(t, host, path, "reveal", 0)
	for i, c := range students {
		got := c.get(path+"/play").doc.Find("[data-testid=you-result]").AttrOr("data-correct", "")
		if want := map[bool]string{true: "true", false: "false"}[i%2 == 0]; got != want {
			t.Errorf("%s after the reveal: correct=%q, want %s", names[i], got, want)
		}
	}
	control(t, host, path, "end", 0)

	res := host.get(path + "/results")
	res.doc.Find("[data-testid=student-row]").Each(func(_ int, r *goquery.Selection) {
		nick := r.AttrOr("data-nickname", "")
		want := "0 / 2"
		for i, n := range names {
			if n == nick && i%2 == 0 {
				want = "1 / 2"
			}
		}
		if got := strings.TrimSpace(r.Find("[data-testid=student-correct]").Text()); got != want {
			t.Errorf("results: %s has %q correct, want %q", nick, got, want)
		}
	})
	exp := host.get(path + "/results.csv")
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(exp.body, "\uFEFF"))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("csv: %d rows, %v", len(rows), err)
	}
	choices := map[string]string{}
	for _, r := range rows[1:] {
		if r[2] == "1" {
			choices[r[0]] = r[6] + " " + r[7]
		}
	}
	for i, n := range names {
		want := q.Answer + " true"
		if i%2 == 1 {
			want = wrong + " false"
		}
		if choices[n] != want {
			t.Errorf("csv: %s chose %q, want %q", n, choices[n], want)
		}
	}
	stats := host.get("/class/items")
	detail := stats.doc.Find(`[data-testid=item-detail][data-question-id="` + q.ID + `"]`)
	for letter, want := range map[string]string{q.Answer: "3 (", wrong: "3 ("} {
		cell := strings.TrimSpace(detail.Find(`[data-testid=option-row][data-letter="` + letter + `"] td`).First().Text())
		if !strings.HasPrefix(cell, want) {
			t.Errorf("item statistics: option %s picked %q, want %s…)", letter, cell, want)
		}
	}
}
