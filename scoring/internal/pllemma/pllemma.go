// Package pllemma maps Polish word forms to their lemmas ("błędu" → "błąd",
// "ponów" and "ponowienie" → "ponowić"), from a table derived from the
// Morfologik PoliMorf dictionary (BSD-2, see LICENSE-morfologik) and cut down
// to the lemmas examsim's Polish text uses. Words are folded as the scorer
// folds them: lower case, no diacritics, ł→l.
package pllemma

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
)

//go:embed pl-lemmas.txt.gz
var tableGz []byte

// Table is the loaded form→lemma table. It holds no pointers into the heap
// beyond its few slices, so it costs the garbage collector nothing to keep.
type Table struct {
	lemmaBlob  string   // the folded lemmas, in order, concatenated
	lemmaEnd   []uint32 // lemma i is lemmaBlob[lemmaEnd[i-1]:lemmaEnd[i]]
	formBlob   string   // the folded forms, concatenated
	formEnd    []uint32 // form i is formBlob[formEnd[i-1]:formEnd[i]]
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
		if f := s - 1; t.form(f) == fold {
			return t.ids[t.start(t.lemmasEnd, f):t.lemmasEnd[f]]
		}
	}
}

// PrefixRange returns the ids [lo, hi) of the lemmas that start with prefix:
// lemma ids follow the order of the folded lemmas.
func (t *Table) PrefixRange(prefix string) (lo, hi uint32) {
	n := len(t.lemmaEnd)
	l := sortSearch(n, func(i int) bool { return t.Lemma(uint32(i)) >= prefix })                           // #nosec G115 -- i < n, the table's lemma count
	h := l + sortSearch(n-l, func(i int) bool { return !strings.HasPrefix(t.Lemma(uint32(l+i)), prefix) }) // #nosec G115 -- l+i < n
	return uint32(l), uint32(h)                                                                            // #nosec G115 -- at most the lemma count, far below 2^32
}

// Lemma returns the folded lemma with the given id.
func (t *Table) Lemma(id uint32) string {
	return t.lemmaBlob[t.start(t.lemmaEnd, id):t.lemmaEnd[id]]
}

// NumLemmas and NumForms say how big the table is.
func (t *Table) NumLemmas() int { return len(t.lemmaEnd) }
func (t *Table) NumForms() int  { return len(t.formEnd) }

func (t *Table) form(i uint32) string { return t.formBlob[t.start(t.formEnd, i):t.formEnd[i]] }

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
func hash(s string) uint32 {
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
// (the lemma, for the first) followed by its other letters.
func parse(gz []byte) (*Table, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	type pair struct {
		form  string
		lemma uint32
	}
	var pairs []pair
	var lemmaBlob strings.Builder
	t := &Table{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line, prevLemma := 0, ""
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		lemma, forms, ok := strings.Cut(text, "\t")
		if !ok || lemma == "" || forms == "" {
			return nil, fmt.Errorf("line %d: want lemma, a tab and its forms", line)
		}
		if lemma <= prevLemma {
			return nil, fmt.Errorf("line %d: lemma %q is out of order", line, lemma)
		}
		prevLemma = lemma
		id := uint32(len(t.lemmaEnd)) // #nosec G115 -- a few thousand lemmas
		lemmaBlob.WriteString(lemma)
		t.lemmaEnd = append(t.lemmaEnd, uint32(lemmaBlob.Len())) // #nosec G115 -- well under 4 GB
		prev := lemma
		for _, enc := range strings.Fields(forms) {
			n := int(enc[0] - '0')
			if n < 0 || n > 9 || n > len(prev) {
				return nil, fmt.Errorf("line %d: form %q does not start with a shared-letter count of at most %d", line, enc, min(9, len(prev)))
			}
			f := prev[:n] + enc[1:]
			pairs = append(pairs, pair{f, id})
			prev = f
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no forms")
	}
	t.lemmaBlob = lemmaBlob.String()
	slices.SortFunc(pairs, func(a, b pair) int {
		if c := strings.Compare(a.form, b.form); c != 0 {
			return c
		}
		return int(a.lemma) - int(b.lemma)
	})
	var formBlob strings.Builder
	for i, p := range pairs {
		if i == 0 || p.form != pairs[i-1].form {
			formBlob.WriteString(p.form)
			t.formEnd = append(t.formEnd, uint32(formBlob.Len())) // #nosec G115 -- well under 4 GB
			t.lemmasEnd = append(t.lemmasEnd, uint32(len(t.ids))) // #nosec G115 -- well under 2^32
		}
		if i == 0 || p != pairs[i-1] {
			t.ids = append(t.ids, p.lemma)
			t.lemmasEnd[len(t.lemmasEnd)-1] = uint32(len(t.ids)) // #nosec G115 -- well under 2^32
		}
	}
	t.formBlob = formBlob.String()
	// At most half full, so a miss ends after a probe or two.
	bits := uint(1)
	for 1<<bits < 2*len(t.formEnd) {
		bits++
	}
	t.slots, t.slotsShift, t.slotsMask = make([]uint32, 1<<bits), 32-bits, 1<<bits-1
	for f := range t.formEnd {
		i := hash(t.form(uint32(f))) >> t.slotsShift // #nosec G115 -- f < the form count
		for t.slots[i] != 0 {
			i = (i + 1) & t.slotsMask
		}
		t.slots[i] = uint32(f) + 1 // #nosec G115 -- f < the form count
	}
	return t, nil
}
