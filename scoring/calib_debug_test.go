package scoring_test

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
)

func TestCalibDebug(t *testing.T) {
	bank := loadBank(t)
	type acc struct{ n, ok int }
	m := map[string]*acc{}
	add := func(k string, ok bool) {
		if m[k] == nil {
			m[k] = &acc{}
		}
		m[k].n++
		if ok {
			m[k].ok++
		}
	}
	for _, it := range scoring.LoadCorpus(t) {
		if it.Split != "train" {
			continue
		}
		q, _ := bank.Question(it.Question)
		lang, _ := examsim.ParseLang(it.Lang)
		res, _ := q.Text(lang).Rubric.Score(it.Text)
		ok := res.Band == it.Band
		hits := 0
		for _, c := range res.Concepts {
			if c.Hit {
				hits++
			}
		}
		add(fmt.Sprintf("band=%d", res.Band), ok)
		add(fmt.Sprintf("hits=%d", min(hits, 3)), ok)
		add(fmt.Sprintf("mis=%d", len(res.Misconceptions)), ok)
		n := utf8.RuneCountInString(it.Text)
		add(fmt.Sprintf("len<%d", []int{60, 150, 300, 600, 5000}[func() int {
			for i, b := range []int{60, 150, 300, 600, 5000} {
				if n < b {
					return i
				}
			}
			return 4
		}()]), ok)
		add(fmt.Sprintf("conf=%.2f", res.Confidence), ok)
		add("lang="+it.Lang, ok)
		add("kind="+it.Kind, ok)
		add(fmt.Sprintf("mis+hits=%v", len(res.Misconceptions) > 0 && hits > 0), ok)
		add(fmt.Sprintf("T band=%d mis=%v hits=%d", res.Band, len(res.Misconceptions) > 0, min(hits, 3)), ok)
		add(fmt.Sprintf("W band=%d words<%v", res.Band, n < 100), ok)
	}
	for k, v := range m {
		t.Logf("%-25s n=%4d exact=%.2f", k, v.n, float64(v.ok)/float64(v.n))
	}
}
