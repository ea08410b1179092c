package scoring

import "github.com/examsim/examsim"

// Negation cues per language. English cues count in every language, since
// learners write "not retryable" inside Thai and Vietnamese sentences, except
// that Polish "no" means "well" and is left out there.
var negationWords = map[examsim.Lang][]string{
	examsim.English: {"not", "no", "never", "dont", "doesnt", "didnt", "wont", "cant", "cannot",
		"shouldnt", "wouldnt", "couldnt", "isnt", "arent", "wasnt", "none", "without", "neither", "nor", "no_need", "pointless", "useless", "futile", "nothing", "no_point"},
	examsim.Vietnamese: {"không", "chẳng", "chả", "chưa", "đừng", "không_cần", "không_nên", "vô_ích"},
	examsim.Polish:     {"nie", "nigdy", "nic", "bez", "ani", "nie_trzeba", "nie_ma_sensu", "bezcel*", "bezsens*"},
	examsim.Thai:       {"ไม่", "อย่า", "ไม่ต้อง", "ไม่ควร", "ห้าม", "มิได้", "ไร้ประโยชน์"},
}

// negationCues holds the compiled cues for each language.
var negationCues = func() map[examsim.Lang][]term {
	out := make(map[examsim.Lang][]term)
	for _, lang := range examsim.Langs {
		words := negationWords[lang]
		if lang != examsim.English {
			for _, w := range negationWords[examsim.English] {
				if !(lang == examsim.Polish && w == "no") {
					words = append(words, w)
				}
			}
		}
		for _, w := range words {
			t, err := compileTerm(w)
			if err != nil {
				panic("scoring: bad negation cue " + w + ": " + err.Error())
			}
			// "agent" is one typo from "arent": negations match exactly.
			t.exact = true
			if w == "อย่า" {
				t.notBefore = []string{"ง"}
			}
			t.number()
			out[lang] = append(out[lang], t)
		}
	}
	return out
}()
