package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/internal/scenario"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// TestProjectorShowsOnlyTheRoom runs a live room on a 1920×1080 projector
// with a Thai and two Latin nicknames and checks what the room sees: the
// names large in the lobby, Thai as large as Latin; no roster, Remove,
// activity log or language switch on the screen until the teacher opens
// their panel, where Remove asks first; the countdown's number centred on
// its ring; reveal bars in the tiles' colours and shapes; and leaderboard
// rank numbers, tied players sharing one.
func TestProjectorShowsOnlyTheRoom(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "teacher", "teacher-pass", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	b := browser(t)
	const qid = "empty-result-retry-loop"
	q, _ := app.Bank.Question(qid)
	host := tab(t, b)
	nicks := map[string]string{"th": "สมชาย", "en": "Sam", "pl": "Kim"}
	phones := map[string]context.Context{}
	for lang := range nicks {
		phones[lang] = tab(t, b)
	}
	var code string
	visible := func(t *testing.T, sel string) bool {
		t.Helper()
		n, err := chromedp.Run(host, chromedp.Evaluate[int](`[...document.querySelectorAll(`+jsString(sel)+`)].filter(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden").length`))
		if err != nil {
			t.Fatalf("looking for %s: %v", sel, err)
		}
		return n > 0
	}

	scenario.Run(t, scenario.Step{Name: "the host starts a live quiz on the projector", Run: func(t *testing.T) {
		do(t, host, "log in", chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(app.URL+"/login?lang=en"),
			chromedp.SendKeys(chromedp.CSS(`#username`), "teacher"),
			chromedp.SendKeys(chromedp.CSS(`#password`), "teacher-pass"),
			chromedp.Submit(chromedp.CSS(`[data-testid=login-form]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=nav-class]`)))
		do(t, host, "build and start", chromedp.Navigate(app.URL+"/class/quizzes/new"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=quiz-form]`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=quiz-title]`), "Projector"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=quiz-seconds]`), "120"),
			chromedp.Click(chromedp.CSS(`[data-testid=expl-off]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=pick-`+qid+`]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=save-quiz]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=saved]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=start-live]`)),
			chromedp.WaitVisible(chromedp.CSS(`#class-root[data-live=on] [data-testid=join-code]`)))
		code = text(t, host, `[data-testid=join-code]`)
	}}, scenario.Step{Name: "the lobby shows the names large, Thai as large as Latin", Run: func(t *testing.T) {
		for lang, nick := range nicks {
			joinOnPhone(t, phones[lang], app.URL, code, lang, nick)
		}
		do(t, host, "three names", chromedp.WaitVisible(chromedp.CSS(`[data-testid=lobby-names] li:nth-child(3)`)))
		size, err := chromedp.Run(host, chromedp.Evaluate[float64](`Math.min(...[...document.querySelectorAll("[data-testid=lobby-names] .nick")].map(e => parseFloat(getComputedStyle(e).fontSize)))`))
		if err != nil || size < 40 {
			t.Errorf("lobby names are %.0fpx (%v), want at least 40", size, err)
		}
		// Without a Thai font the browser draws boxes, and their height says
		// nothing about the page's CSS.
		if out, err := exec.Command("fc-list", ":lang=th").Output(); err != nil || len(bytes.TrimSpace(out)) == 0 {
			t.Fatalf("no Thai font is installed (fc-list :lang=th found none: %v), so Thai nicknames cannot be measured; install one: apt-get install -y fonts-thai-tlwg (.ci/run does)", err)
		}
		// Thai has no capitals: its consonants look as large as a Latin
		// name when their height is halfway between the Latin lowercase and
		// capitals, each measured in the font and size the page gives it.
		raw, err := chromedp.Run(host, chromedp.Evaluate[[]byte](`(() => {
			const c = document.createElement("canvas").getContext("2d");
			const ink = (el, s) => { c.font = getComputedStyle(el).font; const m = c.measureText(s); return m.actualBoundingBoxAscent + m.actualBoundingBoxDescent; };
			const th = document.querySelector("[data-testid=lobby-names] .nick[lang=th]");
			const en = [...document.querySelectorAll("[data-testid=lobby-names] .nick")].find(e => e.textContent === "Sam");
			return {th: th ? ink(th, "มนอ") : 0, en: en ? (ink(en, "mno") + ink(en, "MNO")) / 2 : 0};
		})()`))
		var ink struct{ TH, EN float64 }
		if err == nil {
			err = json.Unmarshal(raw, &ink)
		}
		if err != nil || ink.TH == 0 || ink.EN == 0 {
			t.Fatalf("measuring the nicknames: %v %+v", err, ink)
		}
		if r := ink.TH / ink.EN; r < 0.92 || r > 1.1 {
			t.Errorf("a Thai nickname's letters are %.0f%% the height of a Latin one's (%.1f vs %.1f px), want about the same", 100*r, ink.TH, ink.EN)
		}
		checkAccessibility(t, host, "projector lobby")
	}}, scenario.Step{Name: "roster, Remove, activity and language are on the teacher's panel only", Run: func(t *testing.T) {
		for _, sel := range []string{"[data-testid=roster]", "[data-testid=kick-open]", "[data-testid=activity]", "[data-testid=lang-switch]"} {
			if visible(t, sel) {
				t.Errorf("the projected screen shows %s", sel)
			}
		}
		do(t, host, "open the panel", chromedp.Click(chromedp.CSS(`[data-testid=panel-open]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=teacher-panel] [data-testid=roster-player][data-nickname=Kim]`)))
		for _, sel := range []string{"[data-testid=activity]", "[data-testid=teacher-panel] [data-testid=lang-switch]"} {
			if !visible(t, sel) {
				t.Errorf("the teacher's panel lacks %s", sel)
			}
		}
		checkAccessibility(t, host, "teacher's panel")
		kim := `[data-testid=roster-player][data-nickname=Kim] `
		do(t, host, "Remove asks first", chromedp.Click(chromedp.CSS(kim+`[data-testid=kick-open]`)),
			chromedp.WaitVisible(chromedp.CSS(kim+`[data-testid=kick-yes]`)))
		if n := text(t, host, `[data-testid=player-count]`); n == "" {
			t.Fatal("no player count")
		}
		if c, _ := chromedp.Run(host, chromedp.AttributeValue(chromedp.CSS(`[data-testid=player-count]`), "data-count")); c.Value != "3" {
			t.Errorf("one click on Remove removed a player: %s left", c.Value)
		}
		do(t, host, "confirming removes Kim", chromedp.Click(chromedp.CSS(kim+`[data-testid=kick-yes]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=player-count][data-count="2"]`)))
		do(t, host, "Esc closes the panel", chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`),
			key(host, kb.Escape), chromedp.WaitNotVisible(chromedp.CSS(`[data-testid=teacher-panel]`)))
	}}, scenario.Step{Name: "the countdown's number sits in the middle of its ring", Run: func(t *testing.T) {
		do(t, host, "start", key(host, " "), chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-question]`)))
		raw, err := chromedp.Run(host, chromedp.Evaluate[[]byte](`(() => {
			const ring = document.querySelector("[data-testid=countdown] svg").getBoundingClientRect();
			const r = document.createRange(); r.selectNodeContents(document.querySelector("[data-testid=countdown] [data-countdown]"));
			const n = r.getBoundingClientRect();
			return {dx: (n.left + n.right - ring.left - ring.right) / 2, dy: (n.top + n.bottom - ring.top - ring.bottom) / 2, h: n.height, ring: ring.height};
		})()`))
		var c struct{ DX, DY, H, Ring float64 }
		if err == nil {
			err = json.Unmarshal(raw, &c)
		}
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(c.DX) > 3 || math.Abs(c.DY) > 4 {
			t.Errorf("the countdown's number is %.0f,%.0f px off its ring's centre", c.DX, c.DY)
		}
		if c.H < c.Ring/3 {
			t.Errorf("the countdown's number is %.0f px high in a %.0f px ring", c.H, c.Ring)
		}
	}}, scenario.Step{Name: "the reveal's bars wear the tiles' colours and shapes", Run: func(t *testing.T) {
		for _, lang := range []string{"th", "en"} {
			do(t, phones[lang], lang+" answers right", chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-question]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=choice-`+q.Answer+`]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=stage-answered]`)))
		}
		do(t, host, "reveal", chromedp.WaitVisible(chromedp.CSS(`[data-testid=answer-count][data-answered="2"]`)),
			key(host, "r"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=host-stage-reveal] [data-testid=chart]`)))
		raw, err := chromedp.Run(host, chromedp.Evaluate[[]byte](`(() => {
			const probe = document.createElement("span"); document.body.appendChild(probe);
			const out = {};
			for (const bar of document.querySelectorAll("[data-testid=host-stage-reveal] [data-testid^=bar-]")) {
				const letter = bar.getAttribute("data-testid").slice(4);
				probe.className = "tile tile-" + letter;
				out[letter] = {bar: getComputedStyle(bar).fill, tile: getComputedStyle(probe).backgroundColor, label: bar.previousElementSibling.textContent};
			}
			probe.remove();
			return out;
		})()`))
		var bars map[string]struct{ Bar, Tile, Label string }
		if err == nil {
			err = json.Unmarshal(raw, &bars)
		}
		if err != nil || len(bars) < 4 {
			t.Fatalf("reading the bars: %v %v", err, bars)
		}
		for letter, b := range bars {
			if b.Bar != b.Tile {
				t.Errorf("bar %s is %s, its tile %s", letter, b.Bar, b.Tile)
			}
			if glyph := map[string]string{"A": "▲", "B": "◆", "C": "●", "D": "■"}[letter]; glyph != "" && !containsAll(b.Label, glyph, letter) {
				t.Errorf("bar %s is labelled %q, want its shape %s and letter", letter, b.Label, glyph)
			}
		}
		checkAccessibility(t, host, "projector reveal")
	}}, scenario.Step{Name: "the leaderboard numbers the places, tied players sharing one", Run: func(t *testing.T) {
		do(t, host, "L", key(host, "l"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=leaderboard]`)))
		ranks, err := chromedp.Run(host, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=leaderboard] [data-testid=rank]")].map(e => e.textContent.replace(/\D/g, ""))`))
		if err != nil {
			t.Fatal(err)
		}
		if len(ranks) != 2 || ranks[0] != "1" || ranks[1] != "1" {
			t.Errorf("leaderboard places %v, want [1 1] for two tied players", ranks)
		}
		checkAccessibility(t, host, "projector leaderboard")
	}})
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
