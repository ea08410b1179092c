package scoring_test

import (
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/scoring"
)

// TestRefutedOptionIsNeverHeld: an explanation that names the other options'
// claims to reject them ("the others don't: … a generic try again later …")
// holds none of them, in any clause order and language (issue 20's example,
// actionable-freight-message, option A).
func TestRefutedOptionIsNeverHeld(t *testing.T) {
	bank := loadBank(t)
	q, ok := bank.Question("actionable-freight-message")
	if !ok {
		t.Fatal("no question actionable-freight-message")
	}
	tests := []struct {
		lang examsim.Lang
		text string
	}{
		{"en", "A, because it is actionable: it gives the agent concrete next moves (split the load over two pallets or book the LTL service) and the relevant context — the actual weight 1,200 kg, the 1,000 kg limit and the carrier. The others don't: a raw exception, a generic try again later and a severity label leave the agent with no next step."},
		{"en", "A raw exception, a generic try again later and a severity label: that is what the others give, and none of them leaves the agent a next step. A is actionable, with concrete next moves (split the load over two pallets or book LTL) and the context: the actual weight, the 1,000 kg limit and the carrier."},
		{"en", "B, C and D leave the agent with no next step: a raw exception, a generic try again later and a severity label. A is actionable, with concrete moves like splitting the load or booking LTL, and the context: 1,200 kg against the carrier's 1,000 kg limit."},
		{"vi", "A, vì nó actionable: cho agent những bước tiếp theo cụ thể (chia hàng ra hai pallet hoặc đặt dịch vụ LTL) kèm ngữ cảnh liên quan là cân nặng thực tế 1.200 kg, giới hạn 1.000 kg và hãng vận chuyển. Các phương án còn lại thì không: một exception thô, một lời nhắn chung chung kiểu thử lại sau và một nhãn severity đều khiến agent không biết làm gì tiếp."},
		{"vi", "B, C và D đều để agent bế tắc: exception thô, câu thử lại sau chung chung, nhãn mức độ nghiêm trọng. A thì cụ thể: chia hàng ra hai pallet hoặc đặt LTL, có cân nặng thực tế, giới hạn 1.000 kg và hãng vận chuyển."},
		{"pl", "A, bo jest konkretny: daje agentowi jasne następne kroki (podzielić ładunek na dwie palety albo zarezerwować usługę LTL) i potrzebny kontekst – rzeczywistą wagę 1200 kg, limit 1000 kg i przewoźnika. Pozostałe tego nie robią: surowy wyjątek, ogólnikowe „spróbuj ponownie później” i etykieta ważności zostawiają agenta bez następnego kroku."},
		{"pl", "Surowy wyjątek, ogólne „spróbuj ponownie później” i sama etykieta ważności – tyle dają pozostałe opcje, a żadna nie mówi agentowi, co dalej. A podaje konkretne kroki (dwie palety albo LTL) oraz wagę, limit 1000 kg i przewoźnika."},
		{"th", "A เพราะบอกสิ่งที่ทำต่อได้จริง ให้ agent มีทางไปต่อที่ชัดเจน (แบ่งของเป็นสองพาเลทหรือจองบริการ LTL) พร้อมบริบทที่เกี่ยวข้อง คือน้ำหนักจริง 1,200 กก. ขีดจำกัด 1,000 กก. และบริษัทขนส่ง ส่วนข้ออื่นไม่ได้ให้แบบนั้น: exception ดิบ ๆ ข้อความกว้าง ๆ ว่าลองใหม่ภายหลัง และป้ายระดับความรุนแรง ทำให้ agent ไม่รู้ว่าต้องทำอะไรต่อ"},
		{"th", "exception ดิบ ๆ ข้อความให้ลองใหม่ภายหลังแบบกว้าง ๆ และป้ายความรุนแรง คือสิ่งที่ข้ออื่นให้ ซึ่งไม่ช่วยให้ agent ไปต่อได้เลย ข้อ A บอกทางไปต่อชัดเจน แบ่งเป็นสองพาเลทหรือจอง LTL พร้อมน้ำหนักจริง ขีดจำกัด 1,000 กก. และบริษัทขนส่ง"},
	}
	for _, tt := range tests {
		r := q.Text(tt.lang).Rubric()
		res, err := r.Score(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Misconceptions) > 0 || res.Band < 2 {
			t.Errorf("[%s] band %d, misconceptions %v; want no misconception and band 2 or 3: %q\n%s", tt.lang, res.Band, res.MisconceptionIDs(), tt.text, scoring.Signals(r, tt.text))
		}
	}
	// Calling the others good still holds their claim.
	for lang, text := range map[examsim.Lang]string{
		"en": "A is clear, but the others are fine too: try again later would also work.",
		"vi": "A rõ ràng, nhưng các phương án còn lại cũng được: thử lại sau cũng ổn.",
	} {
		if res, _ := q.Text(lang).Rubric().Score(text); res.Band != 0 {
			t.Errorf("[%s] %q: band %d, want 0 (the others endorsed)", lang, text, res.Band)
		}
	}
}

// TestSufficiencyIsAClaim: "only X matters" and "X is enough" are claims the
// learner makes, which dismiss what else the answer needs: band 0 however
// many of the right keywords stand beside them (issue 20's example). Denied
// or supposed, they claim nothing.
func TestSufficiencyIsAClaim(t *testing.T) {
	bank := loadBank(t)
	q, ok := bank.Question("error-metadata-fields")
	if !ok {
		t.Fatal("no question error-metadata-fields")
	}
	tests := []struct {
		lang   examsim.Lang
		text   string
		claims bool
	}{
		{"en", "isRetryable is really the only field that matters — if it's false the agent should just stop.", true},
		{"en", "The error code plus a timestamp is enough for the agent to decide.", true},
		{"en", "A timestamp alone is not enough: the agent needs errorCategory and isRetryable to decide.", false},
		{"vi", "Chỉ cần isRetryable là đủ, false thì agent dừng luôn.", true},
		{"vi", "Chỉ có isRetryable mới quan trọng, false thì agent dừng.", true},
		{"pl", "Wystarczy samo isRetryable – jak false, agent ma przestać.", true},
		{"pl", "Tylko isRetryable się liczy, przy false agent kończy.", true},
		{"pl", "Samo isRetryable nie wystarczy: agent musi znać errorCategory.", false},
		{"th", "ดูแค่ isRetryable ก็พอ ถ้า false ก็หยุด", true},
	}
	for _, tt := range tests {
		r := q.Text(tt.lang).Rubric()
		res, err := r.Score(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(scoring.Signals(r, tt.text), "sufficiency=true"); got != tt.claims {
			t.Errorf("[%s] %q: sufficiency claim %v, want %v (band %d)", tt.lang, tt.text, got, tt.claims, res.Band)
		}
		if tt.claims && res.Band != 0 {
			t.Errorf("[%s] %q: band %d, want 0 for a claim that one thing is enough", tt.lang, tt.text, res.Band)
		}
	}
}

// TestScoreChoiceBandsAWrongChoiceZero: the app scores an explanation with
// the learner's choice; defending a wrong option is band 0 however well
// put, and no choice scores the text alone.
func TestScoreChoiceBandsAWrongChoiceZero(t *testing.T) {
	bank := loadBank(t)
	q, _ := bank.Question("empty-result-retry-loop")
	r := q.Text(examsim.English).Rubric()
	text := "It is a valid empty result: the query ran and matched nothing, so retrying won't help."
	alone, _ := r.Score(text)
	for _, o := range q.Text(examsim.English).Options {
		res, err := r.ScoreChoice(text, o.Letter)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case o.Letter != q.Answer && (res.Band != 0 || res.Score != 0):
			t.Errorf("choice %s (wrong): band %d score %d, want 0", o.Letter, res.Band, res.Score)
		case o.Letter == q.Answer && res.Band < alone.Band:
			t.Errorf("choice %s (the key): band %d, below the text's own %d", o.Letter, res.Band, alone.Band)
		}
	}
	if res, _ := r.ScoreChoice(text, ""); res.Band != alone.Band {
		t.Errorf("no choice: band %d, want the text's own %d", res.Band, alone.Band)
	}
}
