package scoring_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/scoring"
)

func loadBank(tb testing.TB) *questions.Bank {
	tb.Helper()
	fsys, name := questions.Embedded()
	bank, problems := questions.Load(fsys, name)
	if len(problems) > 0 {
		tb.Fatalf("bank problems:\n%s", problems.Error())
	}
	return bank
}

// TestReadsWhoAssertsWhat holds the failures issue 12 lists: refutations
// counted as beliefs, reversed meanings, "nên" read as "should" where it
// means "so", typos read onto other words, missed ways of saying escalate.
func TestReadsWhoAssertsWhat(t *testing.T) {
	bank := loadBank(t)
	tests := []struct {
		question string
		lang     examsim.Lang
		text     string
		hit      []string // concepts or misconceptions that must be found
		notHit   []string // that must not be
		minBand  int
		maxBand  int
	}{
		{"partial-source-timeouts", "en", "Hand back the three results and say sources 4 and 5 timed out. Presenting the three as the full answer would hide the gap.",
			[]string{"return-partials", "name-the-gap"}, []string{"present-as-complete"}, 2, 3},
		{"malformed-order-id", "en", "It's a validation error; the agent should not fix the id and should not call again, just escalate.",
			nil, []string{"agent-can-fix"}, 0, 1},
		{"rate-limited-research", "en", "A 429 can never be retried, so the subagent must not back off and retry",
			nil, []string{"retry-locally-first"}, 0, 1},
		{"refund-over-limit-retries", "en", "Business error, same result every time.",
			[]string{"business-rule"}, nil, 1, 2},
		{"refund-over-limit-retries", "en", "It is a policy limit, the same every attempt, so loop in a supervisor",
			[]string{"escalate-for-approval"}, nil, 2, 3},
		{"refund-over-limit-retries", "en", "It is a business rule: the same limit applies every attempt, so hand it to a person who can approve it.",
			[]string{"escalate-for-approval"}, nil, 2, 3},
		{"refund-over-limit-retries", "vi", "Đây là business error, hạn mức áp dụng cho mọi lần thử, nên chuyển cho quản lý duyệt.",
			[]string{"escalate-for-approval"}, nil, 2, 3},
		{"refund-over-limit-retries", "pl", "To błąd biznesowy, limit polityki obowiązuje przy każdej próbie, więc przekaż sprawę przełożonemu.",
			[]string{"escalate-for-approval"}, nil, 2, 3},
		{"refund-over-limit-retries", "th", "นี่คือ business error เพราะเกินวงเงินตามนโยบาย retry กี่ครั้งก็ถูกปฏิเสธเหมือนเดิม ต้องส่งเรื่องต่อให้หัวหน้าอนุมัติ",
			[]string{"escalate-for-approval"}, nil, 2, 3},
		{"coordinator-mixed-branches", "en", "The coordinator should care about what each branch returned: keep the good results, retry the transient one and escalate the permission one",
			nil, []string{"abort-on-errors"}, 2, 3},
		// "nên" after a cause means "so": not the misconception's "should".
		{"malformed-order-id", "vi", "Mã bị sai định dạng nên chờ rồi gửi lại cũng vẫn lỗi, agent phải tự sửa mã theo #NNNNN.",
			nil, []string{"transient-retry"}, 1, 3},
		// The explanation of a wrong option, chosen in its first word.
		{"rate-limited-research", "en", "C — six sources is plenty for most research, so the subagent can keep them and move on.",
			nil, nil, 0, 0},
		{"rate-limited-research", "pl", "C – sześć źródeł to dużo, podagent może je zachować i iść dalej.",
			nil, nil, 0, 0},
		// Letters that label items ("B: … C: …") are not a choice of option B.
		{"warehouse-empty-vs-denied-pair", "en", "B: isError false, zero units is a real answer. C: isError true, a permission error, so C's stock is unknown.",
			[]string{"zero-stock-is-an-answer"}, nil, 2, 3},
		// A Thai answer that opens by choosing another option, politely.
		{"rate-limited-research", "th", "C ครับ หกแหล่งก็พอแล้ว subagent เก็บไว้แล้วไปต่อได้เลย",
			nil, nil, 0, 0},
		// A Thai "would only" reaches back over an English term to what it rejects.
		{"coordinator-mixed-branches", "th", "รันใหม่ทั้งสามตัวด้วย timeout ที่ยาวกว่าเดิมมีแต่จะทิ้งงานที่ทำเสร็จไปแล้ว",
			nil, []string{"rerun-everything"}, 1, 3},
		// A letter's option criticised with a word that elsewhere endorses:
		// "wyrzuca dobre artykuły" (throws good articles away), "đụng đúng"
		// (runs into exactly).
		{"coordinator-mixed-branches", "pl", "A. Każda gałąź potrzebuje własnej drogi: ponowić to, co przejściowe, a uprawnienia eskalować. Zatrzymanie wszystkiego jak w B wyrzuca dobre artykuły.",
			nil, nil, 1, 3},
		{"invoice-export-partial-permission", "vi", "B. Giữ 320 hóa đơn làm partial_results và nói rõ West chưa đọc được. Đây là lỗi quyền nên chạy lại từ đầu như D thì cũng đụng đúng lần từ chối đó.",
			nil, nil, 2, 3},
		// A keyword list heading the sentence names terms: a concept needs
		// words of the learner's own claim, wholly outside the list.
		{"search-timeout-escalated-immediately", "en", "B — transient, retry, backoff, recover locally: still, the subagent has to pass each timeout up to the coordinator at once and let it choose.",
			nil, nil, 0, 1},
		{"search-timeout-escalated-immediately", "vi", "B: transient, retry, backoff, tự phục hồi — nhưng subagent vẫn phải đẩy từng lần timeout lên coordinator ngay để nó chọn.",
			nil, nil, 0, 1},
		// A key idea said the other way round inside a supposition's
		// consequence is supposed, not reversed.
		{"empty-result-retry-loop", "en", "D. If the database had been unreachable, retrying would make sense; here the lookup ran and validly found nobody.",
			[]string{"valid-empty"}, nil, 1, 3},
		{"empty-result-retry-loop", "pl", "D. Gdyby baza nie odpowiadała, ponawianie miałoby sens; tu wyszukiwanie zadziałało i poprawnie nikogo nie znalazło.",
			nil, nil, 1, 3},
		// Vietnamese written with diacritics: a bare "dung" is "nội dung"
		// (content), not "đừng" (don't) typed plainly.
		{"what-iserror-tells-model", "vi", "D. Cứ bỏ qua nội dung như C cũng được.",
			nil, nil, 0, 0},
		{"what-iserror-tells-model", "vi", "D. Nội dung trả về là báo lỗi, nên model tự tìm cách phục hồi.",
			nil, nil, 1, 3},
		// A belief reported as the learner's earlier mistake ("I thought",
		// "cứ tưởng", "wydawało mi się", "นึกว่า") is not asserted.
		{"two-vendor-error-conventions", "vi", "Em chọn B, lúc đầu em cứ tưởng spec bắt buộc phải có errorCategory.",
			nil, []string{"vendor-violates-spec"}, 0, 3},
		{"two-vendor-error-conventions", "en", "B. At first I thought the spec required errorCategory, so the vendor seemed to break it.",
			nil, []string{"vendor-violates-spec"}, 0, 3},
		// Negation after the key word.
		{"empty-result-retry-loop", "en", "The lookup worked and found no customer: a valid empty result. Retrying is not needed.",
			nil, []string{"more-retries"}, 1, 3},
		// A refutation that looks back reaches over a purpose clause to the
		// action the purpose belongs to.
		{"cancel-after-shipment", "pl", "B. Cofnięcie statusu zamówienia, aby obejść regułę, byłoby tylko oszukiwaniem; zaproponuj darmowy zwrot.",
			nil, []string{"edit-status"}, 1, 3},
		{"cancel-after-shipment", "pl", "B. Cofnięcie statusu zamówienia, aby obejść regułę, to dobry pomysł.",
			[]string{"edit-status"}, nil, 0, 0},
		{"cancel-after-shipment", "vi", "B. Đổi trạng thái đơn về processing để lách luật chỉ là gian lận, hãy đề nghị trả hàng miễn phí.",
			nil, []string{"edit-status"}, 1, 3},
		{"cancel-after-shipment", "th", "B การแก้สถานะกลับเป็น processing เพื่อเลี่ยงกฎเป็นแค่การโกง ควรเสนอคืนสินค้าฟรี",
			nil, []string{"edit-status"}, 1, 3},
		// A dash between numbers is a range, not a clause break: the
		// negation before "1–3" reaches the words after it.
		{"partial-source-timeouts", "pl", "C. Podagent nie może podawać wyników 1–3 jako pełnego zestawu; musi zgłosić, że 4 i 5 padły.",
			nil, []string{"present-as-complete"}, 1, 3},
		// "Only yields" after an action is the action's futile outcome.
		{"empty-result-retry-loop", "vi", "D. Tăng giới hạn retry lên mười lần chỉ cho ra mười mảng rỗng.",
			nil, []string{"more-retries"}, 1, 3},
		{"empty-result-retry-loop", "th", "D การเพิ่มลิมิตเป็นสิบครั้งก็แค่ได้ array ว่างสิบอัน",
			nil, []string{"more-retries"}, 1, 3},
		// Thai "ถ้าไม่มี" is "without": it argues, it supposes nothing.
		{"tool-result-block-shape", "th", "A ถ้าไม่มี is_error Claude ก็ยังอ่าน 504 ได้ถูกอยู่ดี",
			[]string{"http-code-enough"}, nil, 0, 0},
		// A negation inside the option's own words ("not reading the
		// content") does not cancel a verdict given on it.
		{"what-iserror-tells-model", "th", "D การไม่อ่าน content แบบข้อ C ก็ได้ เดี๋ยว model ก็หา tool อื่นเอง",
			nil, nil, 0, 0},
		// A refutation reaches back over an aside naming an option, and a
		// Polish conditional may have its object before "tylko".
		{"what-iserror-tells-model", "pl", "D. Ignorowanie treści, jak radzi C, zostawiłoby agenta tylko z domysłami.",
			nil, []string{"content-ignored"}, 1, 3},
		{"what-iserror-tells-model", "pl", "D. Ignorowanie treści, jak radzi C, jest w porządku.",
			[]string{"content-ignored"}, nil, 0, 0},
		// Polish "w C" is "in C" (here a warehouse), not option C; "jak w C"
		// names the option. "(A) by zadziałało" (would work) endorses A.
		{"warehouse-empty-vs-denied-pair", "pl", "A. Zapytanie w C przeszło, więc stan w C jest znany.",
			[]string{"c-zero-known"}, nil, 0, 0},
		{"coordinator-blind-to-query", "pl", "D. Przejrzenie własnej historii koordynatora (A) też by zadziałało.",
			nil, nil, 0, 0},
		// A Thai negation judged after it ("ไม่ใช่ทางที่ถูก", is not the
		// right way) reaches back over an English term to its subject.
		{"retryable-false-treated-as-stop", "th", "A การจบ workflow ไม่ใช่ทางที่ถูก",
			[]string{"false-narrow"}, nil, 1, 3},
		// The subject a refutation looks back to may carry "because of one
		// X" or join two nouns with "and".
		{"fatal-expired-credentials", "vi", "D. Hủy cả đợt khóa sổ vì một lỗi token chỉ vứt bỏ ba sổ đã xong.",
			nil, []string{"abort-is-safe"}, 1, 3},
		{"fatal-expired-credentials", "th", "D การยกเลิกการปิดบัญชีทั้งหมดเพราะ token เดียวมีแต่จะทิ้งงานสาม ledger ที่เสร็จแล้ว",
			nil, []string{"abort-is-safe"}, 1, 3},
		{"error-metadata-fields", "pl", "A. Kod błędu i timestamp pomogłyby tylko człowiekowi przy czytaniu logów.",
			nil, []string{"code-and-message-enough"}, 1, 3},
		// Guard: a longer clause before "and" is its own claim, not a subject.
		{"fatal-expired-credentials", "en", "D. Keep the three reconciled ledgers and aborting would only throw that work away.",
			[]string{"keep-finished-ledgers"}, []string{"abort-is-safe"}, 1, 3},
		// "Only temporary" describes the error; it belittles no proposal.
		{"fatal-expired-credentials", "vi", "D. Lỗi token chỉ là tạm thời, một lát sau subagent sẽ đọc được sổ.",
			[]string{"retry-until-refreshed"}, nil, 0, 0},
		{"fatal-expired-credentials", "th", "D ปัญหา token เป็นแค่ชั่วคราว อีกสักพัก subagent ก็อ่าน ledger ได้",
			[]string{"retry-until-refreshed"}, nil, 0, 0},
	}
	for _, tt := range tests {
		q, ok := bank.Question(tt.question)
		if !ok {
			t.Fatalf("no question %s", tt.question)
		}
		res, err := q.Text(tt.lang).Rubric().Score(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		found := res.MisconceptionIDs()
		for _, c := range res.Concepts {
			if c.Hit {
				found = append(found, c.ID)
			}
		}
		for _, id := range tt.hit {
			if !slices.Contains(found, id) {
				t.Errorf("%s [%s] %q: %s not found (found %v)", tt.question, tt.lang, tt.text, id, found)
			}
		}
		for _, id := range tt.notHit {
			if slices.Contains(found, id) {
				t.Errorf("%s [%s] %q: %s found, but the learner does not assert it (found %v)", tt.question, tt.lang, tt.text, id, found)
			}
		}
		if res.Band < tt.minBand || res.Band > tt.maxBand {
			t.Errorf("%s [%s] %q: band %d, want %d to %d (found %v)", tt.question, tt.lang, tt.text, res.Band, tt.minBand, tt.maxBand, found)
		}
	}
}

var _ = scoring.UnsureBelow

// TestBandsAsACarefulGraderGives holds the band rules a careful grader
// follows where the rubric recognises little (issue 12's band definitions):
// off topic or a bare letter is 0, the right letter picked with a hedge and a
// stated doubt is 1 however much of the key idea it names, and a long answer
// with a supporting point is 2.
func TestBandsAsACarefulGraderGives(t *testing.T) {
	bank := loadBank(t)
	tests := []struct {
		question string
		lang     examsim.Lang
		text     string
		band     int
	}{
		// Vague but on topic and not wrong.
		{"refund-over-limit-retries", "en", "The agent needs a smarter way to deal with this error.", 1},
		// Vague but about the domain and not wrong: 1.
		{"appointment-outage-shown-as-empty", "en", "The tool's reply was unclear, it should say more.", 1},
		{"appointment-outage-shown-as-empty", "vi", "Phản hồi của tool không rõ ràng, lẽ ra phải nói nhiều hơn.", 1},
		{"appointment-outage-shown-as-empty", "pl", "Odpowiedź narzędzia była niejasna, powinna mówić więcej.", 1},
		{"appointment-outage-shown-as-empty", "th", "คำตอบของ tool ไม่ชัดเจน ควรบอกมากกว่านี้", 1},
		{"refund-over-limit-retries", "pl", "Agent powinien jakoś mądrzej obsłużyć ten błąd.", 1},
		// Off topic, or a bare letter: 0.
		{"appointment-outage-shown-as-empty", "en", "Our office coffee machine broke again and nobody has fixed it.", 0},
		{"appointment-outage-shown-as-empty", "vi", "Máy pha cà phê ở văn phòng lại hỏng mà chưa ai sửa.", 0},
		{"appointment-outage-shown-as-empty", "pl", "Ekspres do kawy w biurze znowu się zepsuł i nikt go nie naprawił.", 0},
		{"appointment-outage-shown-as-empty", "th", "เครื่องชงกาแฟในออฟฟิศเสียอีกแล้ว ยังไม่มีใครซ่อมเลย", 0},
		{"refund-over-limit-retries", "en", "B is right.", 0},
		{"refund-over-limit-retries", "th", "ตอบ B", 0},
		// The key letter, hedged, and nothing recognised: 1, and sure of it.
		{"refund-over-limit-retries", "en", "Maybe B? I honestly could not decide between the options.", 1},
		{"refund-over-limit-retries", "vi", "Chắc là B, em cũng không dám khẳng định lắm.", 1},
		{"refund-over-limit-retries", "pl", "Chyba B, trudno mi było wybrać między opcjami.", 1},
		{"refund-over-limit-retries", "th", "น่าจะ B มั้ง เลือกยากมาก", 1},
		// The key letter, hedged, with a stated doubt: 1 even with the key idea.
		{"refund-over-limit-retries", "en", "I think B because it is a business rule, but I'm not sure why the backoff would not help.", 1},
		{"refund-over-limit-retries", "vi", "Em nghĩ là B vì đây là business rule, nhưng em không chắc tại sao backoff lại không giúp.", 1},
		{"refund-over-limit-retries", "pl", "Chyba B, bo to reguła biznesowa, ale nie jestem pewna, czemu backoff nie pomoże.", 1},
		{"refund-over-limit-retries", "th", "น่าจะ B เพราะเป็น business rule แต่ไม่แน่ใจว่าทำไม backoff ถึงไม่ช่วย", 1},
		// A supporting point in a long answer whose key idea the rubric
		// does not recognise: 2.
		{"refund-over-limit-retries", "en", "Retrying was pointless here: every one of the three attempts met exactly the same refusal, and nothing about the request changed between them. Waiting two seconds alters nothing, so the agent should stop sending the same call and let a manager decide about the full amount.", 2},
		// "Chắc chắn" is "certainly": no hedge.
		{"refund-over-limit-retries", "vi", "Chắc chắn là B, em không cần nghĩ lâu.", 0},
		// "I think" before a full, confident explanation is no hedge to mark down.
		{"refund-over-limit-retries", "en", "I think B: it is a business rule, the £500 limit applies to every attempt, so retrying can never pass and the agent should escalate to a manager for approval.", 3},
	}
	for _, tt := range tests {
		q, ok := bank.Question(tt.question)
		if !ok {
			t.Fatalf("no question %s", tt.question)
		}
		res, err := q.Text(tt.lang).Rubric().Score(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if res.Band != tt.band {
			t.Errorf("%s [%s] %q: band %d, want %d (found %v)", tt.question, tt.lang, tt.text, res.Band, tt.band, found(res))
		}
		// A hedged pick is a confident 1: graders give it 1 every time.
		if tt.band == 1 && hedgedPick(tt.text) && res.Unsure() {
			t.Errorf("%s [%s] %q: a hedged pick is reported unsure (confidence %.2f)", tt.question, tt.lang, tt.text, res.Confidence)
		}
	}
}

// hedgedPick reports whether a test text picks B with one of the hedges the
// band table above uses.
func hedgedPick(text string) bool {
	for _, h := range []string{"Maybe B", "Chắc là B", "Chyba B", "น่าจะ B", "I think B", "Em nghĩ là B"} {
		if strings.HasPrefix(text, h) {
			return true
		}
	}
	return false
}
