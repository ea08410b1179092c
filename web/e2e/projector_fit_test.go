package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web/webtest"
)

// projectorFit is what one projector screen measures.
type projectorFit struct {
	ViewW, ViewH   float64
	ScrollW        float64
	ScrollH        float64
	Tiles          int
	Missing        []string // parts the screen lacks
	Outside        []string // parts not wholly inside the viewport, below the controls
	Clipped        []string // parts whose text is cut by their box
	StemPx, TilePx float64
	CodeRatio      float64 // the smallest code size over the stem's; 0 with no code
}

// measureProjector is run in the page: where the question's parts are.
const measureProjector = `(() => {
  const vw = innerWidth, vh = innerHeight;
  const bar = document.querySelector("[data-testid=host-bar]");
  const top = bar ? bar.getBoundingClientRect().bottom : 0;
  const r = {ViewW: vw, ViewH: vh, ScrollW: document.documentElement.scrollWidth, ScrollH: document.documentElement.scrollHeight,
    Missing: [], Outside: [], Clipped: [], StemPx: 0, TilePx: 1e9, CodeRatio: 0, Tiles: 0};
  const parts = [["title", ".q-title"], ["stem", ".stem"], ["countdown", "[data-testid=countdown]"], ["answer count", "[data-testid=answer-count]"], ["tiles", "[data-testid=host-options]"]];
  const tiles = document.querySelectorAll("[data-testid=host-options] .tile");
  r.Tiles = tiles.length;
  tiles.forEach((el, i) => parts.push(["tile " + (i + 1), el]));
  for (const [name, sel] of parts) {
    const el = typeof sel === "string" ? document.querySelector(sel) : sel;
    if (!el) { r.Missing.push(name); continue; }
    const b = el.getBoundingClientRect();
    if (b.width === 0 || b.height === 0 || b.top < top - 0.5 || b.left < -0.5 || b.bottom > vh + 0.5 || b.right > vw + 0.5) {
      r.Outside.push(name + " at " + Math.round(b.left) + "," + Math.round(b.top) + "-" + Math.round(b.right) + "," + Math.round(b.bottom));
    }
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) r.Clipped.push(name);
  }
  const stem = document.querySelector(".stem");
  if (stem) r.StemPx = parseFloat(getComputedStyle(stem).fontSize);
  tiles.forEach(el => { r.TilePx = Math.min(r.TilePx, parseFloat(getComputedStyle(el.querySelector(".option-text")).fontSize)); });
  let code = 1e9;
  document.querySelectorAll(".stem code, .stem pre, [data-testid=host-options] code, [data-testid=host-options] pre").forEach(el => {
    code = Math.min(code, parseFloat(getComputedStyle(el).fontSize));
  });
  if (code < 1e9 && r.StemPx > 0) r.CodeRatio = code / r.StemPx;
  document.querySelectorAll(".stem pre").forEach(el => { if (el.scrollWidth > el.clientWidth + 1) r.Clipped.push("code block"); });
  return r;
})()`

// projectorSizes are the screens a lecture hall's projector is driven at.
var projectorSizes = []struct{ w, h int64 }{{1920, 1080}, {1366, 768}, {1280, 720}}

// The readable floor: text on the projector is never smaller than this
// share of the screen's height (20 px at 1080, 14 px at 720: the same size
// on the wall), and code never under 60% of the stem's size.
const (
	projectorFloor = 0.0185
	codeRatioFloor = 0.6
)

// TestProjectorFitsEveryQuestion shows every bank question on the
// projector at 1920×1080, 1366×768 and 1280×720 in all four languages,
// through the question preview, which renders the host's question screen
// without playing a quiz; one page per size and language takes each
// question's screen in turn. The title, the stem, every tile, the countdown
// and the answer count are inside the viewport, below the teacher's
// controls, with no scrolling and no text cut; text keeps the readable
// floor and code is at least 60% of the stem's size. axe runs on the
// longest question in each language at each size.
func TestProjectorFitsEveryQuestion(t *testing.T) {
	app := webtest.Start(t)
	if _, err := store.NewLearnerService(app.DB).CreateAccount(context.Background(), "ines_fit", "password-ines", examsim.RoleInstructor); err != nil {
		t.Fatal(err)
	}
	b := browser(t)
	// One tab for the whole test, each step with its own time limit: tab's
	// limit is for the whole life of a tab.
	tctx, cancelTab := chromedp.NewContext(b, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tctx); err != nil { // open the tab for the whole test, not for one step
		t.Fatal(err)
	}
	login, cancelLogin := context.WithTimeout(tctx, 30*time.Second)
	defer cancelLogin()
	do(t, login, "log in as an instructor", chromedp.Navigate(app.URL+"/login?lang=en"),
		chromedp.SendKeys(chromedp.CSS(`#username`), "ines_fit"),
		chromedp.SendKeys(chromedp.CSS(`#password`), "password-ines"),
		chromedp.Submit(chromedp.CSS(`[data-testid=login-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=nav-class]`)))

	for _, lang := range []string{"en", "vi", "pl", "th"} {
		// The longest question in this language gets axe as well.
		ids := make([]string, 0, len(app.Bank.Questions))
		size := map[string]int{}
		for _, q := range app.Bank.Questions {
			ids = append(ids, q.ID)
			text := q.Text(examsim.Lang(lang))
			size[q.ID] = len([]rune(text.StemMarkdown))
			for _, o := range text.Options {
				size[q.ID] += len([]rune(o.HTML()))
			}
		}
		longest := append([]string(nil), ids...)
		sort.SliceStable(longest, func(i, j int) bool { return size[longest[i]] > size[longest[j]] })
		// One page per size and language: each question's screen is fetched
		// and swapped into it, as the live room's stream swaps the stage,
		// and fitted again, all in the browser: no page load per question.
		for _, sz := range projectorSizes {
			where := fmt.Sprintf("%dx%d %s", sz.w, sz.h, lang)
			ctx, cancel := context.WithTimeout(tctx, 4*time.Minute)
			do(t, ctx, "preview "+where, chromedp.EmulateViewport(sz.w, sz.h),
				chromedp.Navigate(app.URL+"/class/preview/"+longest[0]+"?lang="+lang),
				chromedp.WaitVisible(chromedp.CSS(`html[lang=`+lang+`] #class-root[data-fit=done]`)))
			checkNoViolations(t, ctx, "projector "+where+" "+longest[0])
			idsJSON, _ := json.Marshal(ids)
			raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`(async (ids, lang) => {
				const root = document.getElementById("class-root"), stage = document.getElementById("stage");
				const out = {};
				for (const id of ids) {
					const html = await (await fetch("/class/preview/" + id + "?lang=" + lang)).text();
					const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("stage");
					root.removeAttribute("data-fit");
					stage.innerHTML = fresh.innerHTML;
					window.dispatchEvent(new Event("resize"));
					await new Promise(done => { const t = setInterval(() => { if (root.getAttribute("data-fit") === "done") { clearInterval(t); done(); } }, 5); });
					out[id] = `+measureProjector+`;
				}
				return out;
			})(`+string(idsJSON)+`, "`+lang+`")`, chromedp.EvalAwaitPromise))
			cancel()
			if err != nil {
				t.Fatalf("%s: measuring: %v", where, err)
			}
			var fits map[string]projectorFit
			if err := json.Unmarshal(raw, &fits); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if len(fits) != len(ids) {
				t.Errorf("%s: measured %d questions of %d", where, len(fits), len(ids))
			}
			for _, id := range ids {
				checkFit(t, where+" "+id, fits[id])
			}
		}
	}
}

func checkFit(t *testing.T, where string, m projectorFit) {
	t.Helper()
	if len(m.Missing) > 0 {
		t.Errorf("%s: the projector lacks %v", where, m.Missing)
	}
	if m.Tiles < 2 {
		t.Errorf("%s: %d tiles", where, m.Tiles)
	}
	if m.ScrollH > m.ViewH+0.5 || m.ScrollW > m.ViewW+0.5 {
		t.Errorf("%s: the page is %.0f×%.0f in a %.0f×%.0f screen: it scrolls", where, m.ScrollW, m.ScrollH, m.ViewW, m.ViewH)
	}
	if len(m.Outside) > 0 {
		t.Errorf("%s: not on the screen: %v", where, m.Outside)
	}
	if len(m.Clipped) > 0 {
		t.Errorf("%s: text cut off in %v", where, m.Clipped)
	}
	floor := projectorFloor * m.ViewH
	if m.StemPx < floor || m.TilePx < floor {
		t.Errorf("%s: stem %.1fpx, tiles %.1fpx; the readable floor is %.1fpx", where, m.StemPx, m.TilePx, floor)
	}
	if m.CodeRatio != 0 && m.CodeRatio < codeRatioFloor {
		t.Errorf("%s: code is %.0f%% of the stem's size, want at least %.0f%%", where, 100*m.CodeRatio, 100*codeRatioFloor)
	}
}
