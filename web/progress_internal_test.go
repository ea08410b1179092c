package web

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim"
)

func TestCSVCellDefusesFormulas(t *testing.T) {
	tests := map[string]string{
		"=1+1":                  "'=1+1",
		"+1":                    "'+1",
		"-2":                    "'-2",
		"@SUM(A1)":              "'@SUM(A1)",
		"\t=1":                  "'\t=1",
		"\r=1":                  "'\r=1",
		"plain":                 "plain",
		"a=b":                   "a=b",
		"":                      "",
		"ไม่ควร retry":          "ไม่ควร retry",
		"Kết quả rỗng hợp lệ":   "Kết quả rỗng hợp lệ",
		"’=not a formula quote": "’=not a formula quote",
	}
	for in, want := range tests {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNiceCeiling(t *testing.T) {
	for in, want := range map[int]int{0: 1, 1: 1, 2: 2, 3: 5, 5: 5, 6: 10, 11: 20, 21: 50, 99: 100, 101: 200} {
		if got := niceCeiling(in); got != want {
			t.Errorf("niceCeiling(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestTimelineCountsPerDay(t *testing.T) {
	now := time.Date(2026, 5, 14, 10, 0, 0, 0, time.UTC)
	at := func(daysAgo int, correct bool) *examsim.Attempt {
		return &examsim.Attempt{Answer: examsim.Answer{Correct: correct}, CreatedAt: now.AddDate(0, 0, -daysAgo)}
	}
	days := timeline([]*examsim.Attempt{at(0, true), at(0, false), at(2, true), at(30, true), at(-1, true)}, now, 3)
	type got struct {
		Day            string
		Correct, Wrong int
	}
	var out []got
	for _, d := range days {
		out = append(out, got{d.Day.Format("01-02"), d.Correct, d.Wrong})
	}
	// 30 days ago is outside; tomorrow (a clock that is behind) counts today.
	want := []got{{"05-12", 1, 0}, {"05-13", 0, 0}, {"05-14", 2, 1}}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
}

// TestTimelineDaysAreTheViewers counts an answer on the viewer's calendar
// day: 17:30 and 20:00 UTC on the 13th are the 14th in Ho Chi Minh City.
func TestTimelineDaysAreTheViewers(t *testing.T) {
	saigon, err := time.LoadLocation("Asia/Ho_Chi_Minh")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 14, 9, 0, 0, 0, saigon)
	late := &examsim.Attempt{Answer: examsim.Answer{Correct: true}, CreatedAt: time.Date(2026, 5, 13, 20, 0, 0, 0, time.UTC)}
	early := &examsim.Attempt{CreatedAt: time.Date(2026, 5, 13, 17, 30, 0, 0, time.UTC)}
	var got []string
	for _, d := range timeline([]*examsim.Attempt{late, early}, now, 2) {
		got = append(got, fmt.Sprintf("%s %d/%d", d.Day.Format("01-02"), d.Correct, d.Wrong))
	}
	if diff := cmp.Diff([]string{"05-13 0/0", "05-14 1/1"}, got); diff != "" {
		t.Errorf("timeline in Asia/Ho_Chi_Minh (-want +got):\n%s", diff)
	}
}

func TestNextExamURL(t *testing.T) {
	e := &examsim.Exam{ID: 7, Items: make([]*examsim.ExamItem, 5)}
	tests := map[[2]string]string{
		{"1", "next"}:   "/exam/7/q/2",
		{"5", "next"}:   "/exam/7/review",
		{"1", "prev"}:   "/exam/7/q/1",
		{"3", "prev"}:   "/exam/7/q/2",
		{"3", "review"}: "/exam/7/review",
		{"3", "q5"}:     "/exam/7/q/5",
		{"3", "q9"}:     "/exam/7/q/4", // out of range: like next
		{"3", "bogus"}:  "/exam/7/q/4",
	}
	for in, want := range tests {
		pos := int(in[0][0] - '0')
		if got := nextExamURL(e, pos, in[1]); got != want {
			t.Errorf("nextExamURL(%s, %s) = %s, want %s", in[0], in[1], got, want)
		}
	}
}

func TestClockText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 59 * time.Second: "0:59", 22 * time.Minute: "22:00", 75*time.Minute + 5*time.Second: "1:15:05",
	} {
		if got := clockText(d); got != want {
			t.Errorf("clockText(%v) = %q, want %q", d, got, want)
		}
	}
}
