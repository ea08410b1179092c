// Package pllemma maps Polish word forms to their lemmas ("błędu" → "błąd",
// "ponów" and "ponowienie" → "ponowić"), from a table derived from the
// Morfologik PoliMorf dictionary (BSD-2, see LICENSE-morfologik) and cut down
// to the lemmas examsim's Polish text uses. Words are folded as the scorer
// folds them: lower case, no diacritics, ł→l.
package pllemma

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

//go:embed pl-lemmas.txt.gz
var tableGz []byte

// Table is the loaded form→lemma table. It is a few flat slices, so the
// garbage collector has next to nothing to scan in it.
type Table struct {
	text       string   // the decompressed file: lemmas are slices of it
	lemmaStart []uint32 // lemma i is text[lemmaStart[i]:lemmaEnd[i]]
	lemmaEnd   []uint32
	forms      []byte   // the folded forms, each written out once
	formStart  []uint32 // form i is forms[formStart[i]:formEnd[i]]
	formEnd    []uint32
	lemmasEnd  []uint32 // form i's lemma ids are ids[lemmasEnd[i-1]:lemmasEnd[i]]
	ids        []uint32
	slots      []uint32 // open addressing by hash of the form: 1 + form index, 0 empty
	slotsShift uint
	slotsMask  uint32
}

var (
	loadOnce sync.Once
	loaded   *Table
)

// Load returns the embedded table, reading it on first use.
func Load() *Table {
	loadOnce.Do(func() {
		t, err := parse(tableGz)
		if err != nil {
			panic("pllemma: embedded table: " + err.Error()) // built into the binary: a broken one is a build error
		}
		loaded = t
	})
	return loaded
}

// Lemmas returns the ids of the lemmas fold is a form of, or nil when the
// table does not know the word. The slice must not be changed.
func (t *Table) Lemmas(fold string) []uint32 {
	if len(fold) == 0 {
		return nil
	}
	for i := hash(fold) >> t.slotsShift; ; i = (i + 1) & t.slotsMask {
		s := t.slots[i]
		if s == 0 {
			return nil
		}
		if f := s - 1; string(t.form(f)) == fold {
			return t.ids[t.start(t.lemmasEnd, f):t.lemmasEnd[f]]
		}
	}
}

// PrefixRange returns the ids [lo, hi) of the lemmas that start with prefix:
// lemma ids follow the order of the folded lemmas.
func (t *Table) PrefixRange(prefix string) (lo, hi uint32) {
	n := len(t.lemmaStart)
	l := sortSearch(n, func(i int) bool { return t.Lemma(uint32(i)) >= prefix })                           // #nosec G115 -- i < n, the table's lemma count
	h := l + sortSearch(n-l, func(i int) bool { return !strings.HasPrefix(t.Lemma(uint32(l+i)), prefix) }) // #nosec G115 -- l+i < n
	return uint32(l), uint32(h)                                                                            // #nosec G115 -- at most the lemma count, far below 2^32
}

// Lemma returns the folded lemma with the given id.
func (t *Table) Lemma(id uint32) string {
	return t.text[t.lemmaStart[id]:t.lemmaEnd[id]]
}

// NumLemmas and NumForms say how big the table is.
func (t *Table) NumLemmas() int { return len(t.lemmaStart) }
func (t *Table) NumForms() int  { return len(t.formEnd) }

func (t *Table) form(i uint32) []byte { return t.forms[t.formStart[i]:t.formEnd[i]] }

func (t *Table) start(ends []uint32, i uint32) uint32 {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}

func sortSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// hash is FNV-1a: words are short, and the table is built once.
func hash[S string | []byte](s S) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// parse reads the gzipped table: after '#' comment lines, one line per
// lemma in order, "lemma<TAB>forms" with the forms separated by spaces, each
// written as the count of leading letters it shares with the form before it
// (the lemma, for the first) followed by its other letters. It runs once per
// process, on the first Polish score, so it allocates a few flat slices
// rather than a string per form.
func parse(gz []byte) (*Table, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	t := &Table{text: string(raw)}
	pairs, err := t.readLemmas()
	if err != nil {
		return nil, err
	}
	if len(pairs.start) == 0 {
		return nil, fmt.Errorf("no forms")
	}
	t.index(pairs)
	return t, nil
}

// formPairs is each (form, lemma) pair in file order: the form's place in
// t.forms and its lemma.
type formPairs struct{ start, end, lemma []uint32 }

// readLemmas reads t.text's lines into t.lemmaStart, t.lemmaEnd and t.forms.
func (t *Table) readLemmas() (formPairs, error) {
	// Sized up front: the slices would otherwise be copied as they grow,
	// several times over.
	n := strings.Count(t.text, " ") + strings.Count(t.text, "\t")
	pairs := formPairs{make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n)}
	t.forms = make([]byte, 0, 2*len(t.text))
	t.formStart, t.formEnd, t.ids = make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n)
	prevLemma := ""
	for line, pos := 0, 0; pos < len(t.text); {
		line++
		text, _, _ := strings.Cut(t.text[pos:], "\n")
		lineStart := pos
		pos += len(text) + 1
		if text == "" || text[0] == '#' {
			continue
		}
		tab := strings.IndexByte(text, '\t')
		if tab <= 0 || tab == len(text)-1 {
			return pairs, fmt.Errorf("line %d: want lemma, a tab and its forms", line)
		}
		lemma := text[:tab]
		if lemma <= prevLemma {
			return pairs, fmt.Errorf("line %d: lemma %q is out of order", line, lemma)
		}
		prevLemma = lemma
		id := uint32(len(t.lemmaStart)) // #nosec G115 -- a few thousand lemmas
		off := uint32(lineStart)        // #nosec G115 -- the file is well under 4 GB
		t.lemmaStart = append(t.lemmaStart, off)
		t.lemmaEnd = append(t.lemmaEnd, off+uint32(tab)) // #nosec G115 -- tab < len(text)
		if err := t.readForms(&pairs, id, lemma, text[tab+1:]); err != nil {
			return pairs, fmt.Errorf("line %d: %v", line, err)
		}
	}
	return pairs, nil
}

// readForms decodes one lemma's forms into t.forms and pairs.
func (t *Table) readForms(pairs *formPairs, id uint32, lemma, forms string) error {
	prevFrom, prevLen := -1, len(lemma) // the form before: -1 for the lemma, else its place in t.forms
	for rest := forms; rest != ""; {
		var enc string
		enc, rest, _ = strings.Cut(rest, " ")
		if enc == "" {
			continue
		}
		n := int(enc[0] - '0')
		if n < 0 || n > 9 || n > prevLen {
			return fmt.Errorf("form %q does not start with a shared-letter count of at most %d", enc, min(9, prevLen))
		}
		start := len(t.forms)
		if prevFrom < 0 {
			t.forms = append(t.forms, lemma[:n]...)
		} else {
			t.forms = append(t.forms, t.forms[prevFrom:prevFrom+n]...)
		}
		t.forms = append(t.forms, enc[1:]...)
		prevFrom, prevLen = start, len(t.forms)-start
		pairs.start = append(pairs.start, uint32(start))    // #nosec G115 -- well under 4 GB
		pairs.end = append(pairs.end, uint32(len(t.forms))) // #nosec G115 -- well under 4 GB
		pairs.lemma = append(pairs.lemma, id)
	}
	return nil
}

// index builds the open-addressed form table and each form's sorted lemma ids.
func (t *Table) index(pairs formPairs) {
	// At most half full, so a miss ends after a probe or two.
	bits := uint(1)
	for 1<<bits < 2*len(pairs.start) {
		bits++
	}
	t.slots, t.slotsShift, t.slotsMask = make([]uint32, 1<<bits), 32-bits, 1<<bits-1
	// Each distinct form once, with a chain through its pairs: head is the
	// form's last pair + 1, next each pair's previous one + 1.
	head := make([]uint32, 0, len(pairs.start))
	next := make([]uint32, len(pairs.start))
	for p := range pairs.start {
		form := t.forms[pairs.start[p]:pairs.end[p]]
		i := hash(form) >> t.slotsShift
		for t.slots[i] != 0 && !bytes.Equal(t.form(t.slots[i]-1), form) {
			i = (i + 1) & t.slotsMask
		}
		if t.slots[i] == 0 {
			t.slots[i] = uint32(len(t.formStart)) + 1 // #nosec G115 -- fewer forms than pairs
			t.formStart, t.formEnd = append(t.formStart, pairs.start[p]), append(t.formEnd, pairs.end[p])
			head = append(head, 0)
		}
		f := t.slots[i] - 1
		next[p], head[f] = head[f], uint32(p)+1 // #nosec G115 -- well under 2^32 pairs
	}
	t.lemmasEnd = make([]uint32, len(head))
	for f, h := range head {
		from := len(t.ids)
		for p := h; p != 0; p = next[p-1] {
			if id := pairs.lemma[p-1]; !slices.Contains(t.ids[from:], id) {
				t.ids = append(t.ids, id)
			}
		}
		slices.Sort(t.ids[from:])
		t.lemmasEnd[f] = uint32(len(t.ids)) // #nosec G115 -- well under 2^32
	}
}
