package scoring

import "github.com/examsim/examsim"

// Polish, written with or without diacritics.
var langPolish = &language{
	lang: examsim.Polish,
	cues: cueWords{
		blockers: []string{"ale", "lecz", "bo", "ponieważ", "więc", "dlatego", "i", "oraz", "a", "że", "który", "która", "które",
			"którego", "gdy", "kiedy", "tylko", "natomiast", "żeby", "aby", "chociaż", "choć", "albo", "lub", "czyli", "zatem", "tylko_że", "potem"},
		judgements:   []string{"potrzeb*", "konieczn*", "pomo*", "pomaga*", "da", "zadziała*", "działa*", "ma_sensu", "sens*", "rozwiąż*", "rozwiąz*", "zmieni*", "warto", "dobr*", "właściw*", "wymagan*", "przyda*", "poprawn*", "słuszn*"},
		selfJudging:  []string{"bezcel*", "bezsens*", "nie_ma_sensu", "nic_nie_da", "nic_nie_zmieni", "daremn*", "zbędn*", "niepotrzebn*"},
		refuteAhead:  []string{"zamiast", "błędem_jest", "błąd_to", "nie_ma_sensu", "unikać", "unikaj", "jakby", "udawać", "udając", "w_przeciwieństwie", "nie_należy", "nie_wolno"},
		refuteBehind: []string{"tylko_by", "ukryłby", "ukryłoby", "ukrywa", "ukryje", "zgubiłby", "zgubiłoby", "marnuje", "zmarnowałby", "zmarnowałoby", "byłoby_błędem", "byłby_błąd", "byłoby_tylko", "byłby_tylko", "byłaby_tylko", "jest_błędem", "to_błąd", "byłoby_złe", "jest_złe", "jest_błędne", "wprowadza_w_błąd", "wprowadziłoby_w_błąd", "jedynie_by", "nie_ma_sensu", "nic_by_nie_dało", "nic_by_nie_dał", "zepsułaby", "zepsułby", "zepsułoby", "wyrzuca", "wyrzuci", "wyrzuciłby", "wyrzuciłoby", "wyrzucamy", "to_klasyczny_błąd", "to_typowy_błąd", "to_częsty_błąd", "to_klasyczny_antywzorzec"},
		suppose:      []string{"jeśli", "jeżeli", "gdyby", "o_ile", "załóżmy", "przypuśćmy", "w_razie", "jakby", "gdybyśmy", "gdyby_był", "myślałem", "myślałam", "wydawało_mi_się", "sądziłem", "sądziłam"},
		weak:         []string{"bez"},
		modals:       []string{"by", "byłby", "byłoby", "byłaby", "mogłoby", "mógłby", "mogłaby"},
		purpose:      []string{"żeby", "aby"},
		states:       []string{"chwilow*", "przejściow*", "tymczasow*"},
		and:          []string{"i", "oraz"},
	},
	negations:     []string{"nie", "nigdy", "nic", "bez", "ani", "nie_trzeba", "nie_ma_sensu", "bezcel*", "bezsens*"},
	letterCues:    []string{"jak", "opcja", "opcji", "odpowiedź", "wariant", "jak_w"},
	endorsements:  []string{"dobr*", "dobrze", "ok", "lepsz*", "bezpieczn*", "działa", "zadziała", "słuszn*", "poprawn*", "wystarcz*", "w_porządku", "najprostsz*", "solidn*", "najczystsz*", "sprytn*", "sensown*", "by_zadziałało", "by_zadziałał", "by_zadziałała", "zadziałałoby", "zadziałałby"},
	verdicts:      []string{"jest_ok", "też_jest_ok", "jest_w_porządku", "to_dobry", "to_dobre", "to_bezpieczny", "to_najczystsze", "to_sprytne", "jest_lepszy", "jest_lepsze", "jest_równie_dobry", "jest_tak_samo", "też_by_zadziałało", "jest_bezpieczn*"},
	others:        []string{"pozostałe_opcje", "pozostałych_opcji", "pozostałe_odpowiedzi", "inne_opcje", "inne_odpowiedzi", "pozostałe_warianty", "pozostale_opcje", "inne_warianty"},
	othersOpening: []string{"pozostałe", "reszta", "tamte", "pozostale", "inne"},
	domain: []string{"narzędz*", "agent*", "podagent*", "koordynator*", "błęd*", "błąd*", "wynik*", "ponow*",
		"eskal*", "uprawnie*", "obsług*", "eksport*", "flag*", "zapytani*", "gałę*", "gałąź", "wywołani*", "niepowodzeni*"},
	hedges: []string{"chyba", "pewnie", "myślę", "raczej", "prawdopodobnie", "wydaje_mi_się", "prawie_pewn*", "możliwe"},
	doubts: []string{"nie_jestem_pew*", "nie_byłem_pew*", "nie_byłam_pew*", "nie_wiem", "nie_rozumiem", "zastanawia*",
		"nie_mam_pewności", "nie_jestem_przekonan*", "kusiło"},
	joiners:       []string{"i", "oraz", "lub", "albo"},
	choiceWords:   []string{"bo", "ponieważ"},
	abbreviations: []string{"np", "tj", "tzn", "itp", "m.in", "ok"},
	commonWords: []string{
		"dlatego", "ponieważ", "poniewaz", "który", "ktory", "która", "ktora", "które", "ktore", "zawsze",
		"jeszcze", "tylko", "wtedy", "trzeba", "można", "mozna", "należy", "nalezy", "powinien", "powinno",
		"powinna", "bardzo", "czyli", "każdy", "kazdy", "każde", "kazde", "przez", "potem", "jakby", "gdyby",
		"robić", "robic", "zrobić", "zrobic", "mówić", "mowic", "zawsze", "może", "moze",
	},
	// "tylko ukryłoby", "wyrzuciłoby tylko": only + a conditional verb is
	// "would only".
	onlyWord:           "tylko",
	conditionalEndings: []string{"loby", "lby", "laby", "lyby", "liby"},
	notFromEnglish:     []string{"no"}, // Polish "no" means "well"
	sufficiency:        []string{"wystarczy", "wystarczą", "wystarcza", "wystarczają", "wystarczyć", "wystarczy_że"},
	onlyWords:          []string{"tylko", "jedynie", "jedyne", "jedyna", "jedyny"},
	mattersWords:       []string{"się_liczy", "liczy_się", "ma_znaczenie", "się_liczą", "liczą_się"},
	notApplicable: map[string]string{
		"articleLetters":   "no Polish word is a capital A–D alone (\"A\" as \"and\" is lower-case mid-sentence)",
		"cause":            "Polish subjects joined by a cause were not seen in the corpus; not tuned",
		"one":              "Polish subjects joined by a cause were not seen in the corpus; not tuned",
		"choicePrefixes":   "a choice is read from the whole word after the letter (choiceWords)",
		"exceptions":       "no Polish cue needs a letter it must not be followed by",
		"soWord":           "only Vietnamese has a word that means both \"should\" and \"so\"",
		"soAfter":          "only Vietnamese",
		"soCauses":         "only Vietnamese",
		"actionNounPrefix": "only Thai forms action nouns with a prefix inside a word",
		"describesPrefix":  "only Thai",
	},
}
