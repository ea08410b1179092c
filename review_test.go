package examsim_test

import (
	"testing"

	"github.com/examsim/examsim"
)

func TestReviewRatingFor(t *testing.T) {
	tests := []struct {
		name      string
		correct   bool
		explained bool
		band      int
		want      examsim.ReviewRating
	}{
		{"wrong", false, true, 3, examsim.RateAgain},
		{"wrong, no explanation", false, false, 0, examsim.RateAgain},
		{"right, wrong reasoning", true, true, 0, examsim.RateHard},
		{"right, vague", true, true, 1, examsim.RateHard},
		{"right, key point", true, true, 2, examsim.RateGood},
		{"right, complete", true, true, 3, examsim.RateEasy},
		{"right, no explanation", true, false, 0, examsim.RateGood},
	}
	for _, tt := range tests {
		if got := examsim.ReviewRatingFor(tt.correct, tt.explained, tt.band); got != tt.want {
			t.Errorf("%s: rating %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestReviewSettingsValidate(t *testing.T) {
	for _, tt := range []struct {
		retention float64
		ok        bool
	}{{0.9, true}, {0.7, true}, {0.97, true}, {0.69, false}, {0.98, false}, {0, false}} {
		err := examsim.ReviewSettings{DesiredRetention: tt.retention}.Validate()
		if (err == nil) != tt.ok || (err != nil && examsim.ErrorCode(err) != examsim.EINVALID) {
			t.Errorf("retention %v: %v", tt.retention, err)
		}
	}
}
