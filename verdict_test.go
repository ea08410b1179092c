package examsim

import "testing"

// TestNoBandShowsAScoreALowerBandCouldHave: the score is derived from the
// band that counts, so every band's figure is above every lower band's,
// whoever gave the band.
func TestNoBandShowsAScoreALowerBandCouldHave(t *testing.T) {
	var last = -1
	for band := 0; band <= 3; band++ {
		auto := Verdict{Band: band}
		regraded := Verdict{Band: 3 - band, Human: &HumanGrade{Band: band}}
		if auto.Score() != regraded.Score() {
			t.Errorf("band %d: %d from the scorer, %d from a teacher", band, auto.Score(), regraded.Score())
		}
		if s := auto.Score(); s <= last || s < 0 || s > 100 {
			t.Errorf("band %d scores %d, not above band %d's %d", band, s, band-1, last)
		}
		last = auto.Score()
	}
	if BandScore(0) != 0 || BandScore(3) != 100 {
		t.Errorf("bands 0 and 3 score %d and %d, want 0 and 100", BandScore(0), BandScore(3))
	}
}
