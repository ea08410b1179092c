//go:build ignore

// This program regenerates pl-lemmas.txt.gz, the Polish form→lemma table the
// scorer embeds, from a dump of the PoliMorf dictionary (see Dump.java). It
// keeps only the lemmas examsim's Polish text uses: the bank's pl.md files
// (rubric patterns included), the Polish lesson in the seeds, and the TRAIN
// split of the scoring corpus (never a test-split item), and every inflected
// form of those lemmas. It is not part of the build or of `make test`.
//
//	go run scoring/internal/pllemma/gen/main.go -dump /tmp/polimorf.tsv -seeds ../shared/seeds
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

var (
	dumpPath = flag.String("dump", "/tmp/polimorf.tsv", "form<TAB>lemma<TAB>tags dump written by Dump.java")
	root     = flag.String("root", ".", "the examsim repository")
	seeds    = flag.String("seeds", "../shared/seeds", "the lessons; the Polish one is picked by its letters")
	out      = flag.String("out", "scoring/internal/pllemma/pl-lemmas.txt.gz", "the table to write")
	show     = flag.String("show", "", "comma-separated words: print what the table maps them to, then exit")
)

// openClasses are the parts of speech whose forms are mapped to their lemma:
// nouns, adjectives, adverbs, verbs and the verb's gerunds and participles
// (so "ponowienie" and "ponowiony" map to "ponowić").
var openClasses = map[string]bool{
	"subst": true, "depr": true, "adj": true, "adja": true, "adjp": true, "adv": true,
	"verb": true, "ger": true, "pact": true, "ppas": true, "pant": true, "pcon": true,
}

// pronominal lemmas are tagged as adjectives or nouns but behave as function
// words: "to" must not match "tego" or "tej" through "ten".
var pronominal = map[string]bool{
	"ten": true, "to": true, "tamten": true, "ów": true, "taki": true, "jaki": true, "który": true,
	"jakiś": true, "jakikolwiek": true, "którykolwiek": true, "czyj": true, "czyjś": true, "kto": true,
	"co": true, "ktoś": true, "coś": true, "nikt": true, "nic": true, "żaden": true, "każdy": true,
	"wszystek": true, "wszystko": true, "wszelki": true, "sam": true, "mój": true, "twój": true,
	"swój": true, "nasz": true, "wasz": true, "niektóry": true, "tenże": true, "ile": true, "tyle": true,
}

// minForm is the shortest form (in folded letters) the table keeps: two-letter
// forms are nearly all function words ("są", "ma", "by").
const minForm = 3

type reading struct{ form, lemma string }

func main() {
	flag.Parse()
	domain, prefixes := domainWords()
	log.Printf("%d distinct Polish words and %d pattern prefixes in the bank, the lesson and the train split", len(domain), len(prefixes))
	selected, closed := selectLemmas(domain, prefixes)
	log.Printf("%d lemmas selected", len(selected))
	forms := formsOf(selected, closed)
	if *show != "" {
		for _, w := range strings.Split(*show, ",") {
			var ls []string
			for lf, fs := range forms {
				if fs[fold(w)] {
					ls = append(ls, lf)
				}
			}
			slices.Sort(ls)
			fmt.Printf("%s → %v\n", w, ls)
		}
		return
	}
	write(forms)
}

// selectLemmas returns the lemmas the domain's words attest or a pattern
// prefix starts, and the folded forms with a closed-class reading (those get
// no lemma at all).
func selectLemmas(domain, prefixes map[string]bool) (selected, closed map[string]bool) {
	closed = map[string]bool{}
	readings := map[string]map[string]bool{} // domain word → its lemmas
	scan(func(form, lemma string, open bool) {
		f := fold(form)
		if !open {
			closed[f] = true
			return
		}
		if domain[f] {
			if readings[f] == nil {
				readings[f] = map[string]bool{}
			}
			readings[f][lemma] = true
		}
	})
	// A lemma is selected when the text attests it: a word that is its base
	// form or a form of it alone. A word's other readings are mostly rare
	// homographs ("uda" is also the plural of "udo", thigh; "musi" a form of
	// "music", to force) that would make unrelated words match.
	selected = map[string]bool{}
	for f, ls := range readings {
		if closed[f] {
			continue
		}
		for l := range ls {
			if len(ls) == 1 || fold(l) == f {
				selected[l] = true
			}
		}
	}
	// Lemmas a pattern prefix is the start of: "źródł*" names źródło, whose
	// plural genitive "źródeł" the prefix alone misses.
	scan(func(form, lemma string, open bool) {
		if !open || selected[lemma] {
			return
		}
		lf := fold(lemma)
		if lf != fold(form) {
			return
		}
		// Lemmas up to three letters longer than the prefix: longer ones
		// are other words built on it, which the prefix matches anyway.
		for n := max(4, len(lf)-3); n <= len(lf); n++ {
			if prefixes[lf[:n]] {
				selected[lemma] = true
				return
			}
		}
	})
	return selected, closed
}

// formsOf returns every form of the selected lemmas, folded, by folded lemma.
func formsOf(selected, closed map[string]bool) map[string]map[string]bool {
	forms := map[string]map[string]bool{} // lemma fold → form folds
	scan(func(form, lemma string, open bool) {
		if !open || !selected[lemma] {
			return
		}
		f, lf := fold(form), fold(lemma)
		if closed[f] || len(f) < minForm {
			return
		}
		if forms[lf] == nil {
			forms[lf] = map[string]bool{}
		}
		forms[lf][f] = true
	})
	return forms
}

// scan calls fn for each reading of the dump whose lemma is a lower-case word
// of letters, with whether it is an open-class, affirmative, plain-degree
// reading the table may use.
func scan(fn func(form, lemma string, open bool)) {
	fh, err := os.Open(*dumpPath)
	if err != nil {
		log.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			continue
		}
		form, lemma := strings.ToLower(parts[0]), parts[1]
		if !letters(form) || !letters(lemma) || lemma != strings.ToLower(lemma) {
			continue // proper names, abbreviations, hyphenated forms
		}
		for _, tag := range strings.Split(parts[2], "+") {
			pos, _, _ := strings.Cut(tag, ":")
			open := openClasses[pos] && !pronominal[lemma] && !hasField(tag, "neg") && !hasField(tag, "com") && !hasField(tag, "sup")
			// A negated gerund or participle ("nieponawianie") is not the
			// verb: it would read a negation as the concept itself.
			fn(form, lemma, open)
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}

func hasField(tag, f string) bool {
	for _, p := range strings.Split(tag, ":") {
		if p == f {
			return true
		}
	}
	return false
}

func letters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// fold lower-cases a word and drops its Latin diacritics, ł→l, as the scorer
// folds the words it compares (scoring/text.go).
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case r >= 0x0300 && r <= 0x036F:
		case r == 'ł':
			b.WriteByte('l')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// domainWords returns the folded words of examsim's Polish text, and the
// folded prefixes of the rubric patterns (four letters or more).
func domainWords() (map[string]bool, map[string]bool) {
	words, prefixes := map[string]bool{}, map[string]bool{}
	add := func(text string) {
		for _, field := range strings.FieldsFunc(text, func(r rune) bool {
			return !unicode.IsLetter(r) && r != '*'
		}) {
			for _, w := range strings.Split(field, "*") {
				if w != "" {
					words[fold(w)] = true
				}
			}
			if strings.HasSuffix(field, "*") && !strings.Contains(strings.TrimSuffix(field, "*"), "*") {
				if p := fold(strings.TrimSuffix(field, "*")); len(p) >= 4 {
					prefixes[p] = true
				}
			}
		}
	}
	bank := filepath.Join(*root, "questions", "bank")
	n := 0
	err := filepath.WalkDir(bank, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "pl.md" {
			return err
		}
		b, err := os.ReadFile(path)
		add(string(b))
		n++
		return err
	})
	if err != nil || n == 0 {
		log.Fatalf("bank %s: %d pl.md files, %v", bank, n, err)
	}
	add(polishLesson())
	for _, t := range trainTexts() {
		add(t)
	}
	return words, prefixes
}

// polishLesson returns the seed lesson written in Polish.
func polishLesson() string {
	entries, err := os.ReadDir(*seeds)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(*seeds, e.Name()))
		if err != nil {
			log.Fatal(err)
		}
		if strings.Count(string(b), "ł")+strings.Count(string(b), "ę") > 50 {
			return string(b)
		}
	}
	log.Fatalf("no Polish lesson in %s", *seeds)
	return ""
}

// trainTexts returns the Polish explanations and minimal pairs of the train
// split's questions; items of other questions are skipped unread.
func trainTexts() []string {
	corpus := filepath.Join(*root, "scoring", "testdata", "corpus")
	var split struct {
		Train []string `json:"train"`
	}
	b, err := os.ReadFile(filepath.Join(corpus, "split.json"))
	if err != nil {
		log.Fatal(err)
	}
	if err := json.Unmarshal(b, &split); err != nil || len(split.Train) == 0 {
		log.Fatalf("split.json: %v", err)
	}
	var texts []string
	for _, f := range []string{"items/pl.jsonl", "pairs/pl.jsonl"} {
		b, err := os.ReadFile(filepath.Join(corpus, f))
		if err != nil {
			log.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			var it struct {
				Question            string
				Text, Higher, Lower string
			}
			if line == "" || json.Unmarshal([]byte(line), &it) != nil || !slices.Contains(split.Train, it.Question) {
				continue
			}
			texts = append(texts, it.Text, it.Higher, it.Lower)
		}
	}
	return texts
}

// write writes the table: a header, then one line per lemma, in order of
// the folded lemma: the lemma, a tab, and its folded forms separated by
// spaces, each written as how many letters it shares with the form before
// (the lemma for the first) and the rest: "blad 3edu" is "bledu" after "blad".
func write(forms map[string]map[string]bool) {
	lemmas := make([]string, 0, len(forms))
	for l := range forms {
		lemmas = append(lemmas, l)
	}
	slices.Sort(lemmas)
	path := *out
	if !filepath.IsAbs(path) {
		path = filepath.Join(*root, path)
	}
	fh, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(fh, gzip.BestCompression)
	w := bufio.NewWriter(zw)
	fmt.Fprintln(w, "# Polish form→lemma table for examsim's scorer, folded (no diacritics, ł→l).")
	fmt.Fprintln(w, "# Derived from the Morfologik Polish dictionary 2.0 PoliMorf; see LICENSE-morfologik.")
	fmt.Fprintln(w, "# Regenerate with scoring/internal/pllemma/gen/main.go; do not edit.")
	nforms := 0
	for _, l := range lemmas {
		fs := make([]string, 0, len(forms[l]))
		for f := range forms[l] {
			fs = append(fs, f)
		}
		slices.Sort(fs)
		w.WriteString(l)
		w.WriteByte('\t')
		prev := l
		for i, f := range fs {
			if i > 0 {
				w.WriteByte(' ')
			}
			n := commonPrefix(prev, f)
			fmt.Fprintf(w, "%d%s", n, f[n:])
			prev = f
		}
		w.WriteByte('\n')
		nforms += len(fs)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		log.Fatal(err)
	}
	st, _ := os.Stat(path)
	log.Printf("wrote %s: %d lemmas, %d forms, %d bytes", *out, len(lemmas), nforms, st.Size())
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && n < 9 && a[n] == b[n] {
		n++
	}
	return n
}
