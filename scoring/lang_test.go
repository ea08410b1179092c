package scoring

import (
	"reflect"
	"slices"
	"testing"

	"github.com/examsim/examsim"
)

// roleProblems lists the roles of d left empty without a reason in
// notApplicable, and reasons given for roles that are filled or do not exist.
func roleProblems(d *language) []string {
	var out []string
	roles := map[string]bool{}
	var walk func(v reflect.Value, t reflect.Type)
	walk = func(v reflect.Value, t reflect.Type) {
		for i := range t.NumField() {
			f, fv := t.Field(i), v.Field(i)
			switch f.Name {
			case "lang", "notApplicable":
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				walk(fv, f.Type)
				continue
			}
			roles[f.Name] = true
			empty := fv.Len() == 0 // strings, slices and maps alike
			reason := d.notApplicable[f.Name]
			switch {
			case empty && reason == "":
				out = append(out, f.Name+" is empty: fill it, or say in notApplicable why the language has none")
			case !empty && reason != "":
				out = append(out, f.Name+" is filled but notApplicable says: "+reason)
			}
		}
	}
	walk(reflect.ValueOf(*d), reflect.TypeOf(*d))
	for name := range d.notApplicable {
		if !roles[name] {
			out = append(out, "notApplicable names "+name+", which is no role")
		}
	}
	slices.Sort(out)
	return out
}

// TestEveryLanguageFillsEveryRole: every language the product offers has its
// data, and fills every role or says why it has none, so no language reads
// silently as English where its own words are missing.
func TestEveryLanguageFillsEveryRole(t *testing.T) {
	for _, l := range examsim.Langs {
		d := languages[l]
		if d == nil {
			t.Errorf("%s: no language data; add lang_%s.go and list it in languages", l, l)
			continue
		}
		if d.lang != l {
			t.Errorf("%s: its data says it is %q", l, d.lang)
		}
		for _, p := range roleProblems(d) {
			t.Errorf("%s: %s", l, p)
		}
	}
	// The check itself: a language that drops its hedges, or its cues'
	// blockers, is caught.
	broken := *langVietnamese
	broken.hedges = nil
	broken.cues.blockers = nil
	if got := roleProblems(&broken); len(got) != 2 {
		t.Errorf("a language with two roles emptied: %v, want both reported", got)
	}
}
