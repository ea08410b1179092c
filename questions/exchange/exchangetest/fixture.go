// Package exchangetest holds authored questions for tests of the packages
// that import, store, export and show them.
package exchangetest

import "github.com/examsim/examsim"

// Question is a teacher's question the bank would accept: every
// language, a rubric, a lesson source; its distractor is as long as its
// key, so it adds no cue to the bank's cue check.
func Question() *examsim.AuthoredQuestion {
	texts := map[examsim.Lang][4]string{ // title, stem, key, distractor
		examsim.English:    {"A locked calendar", "The calendar tool answers `403 Forbidden` for a meeting the user cannot see. What should the agent do?", "Tell the user they lack access to that calendar", "Retry the call after a backoff, in case the calendar answers later"},
		examsim.Vietnamese: {"Lịch bị khóa", "Công cụ lịch trả về `403 Forbidden` cho một cuộc họp người dùng không được xem. Tác tử nên làm gì?", "Báo người dùng rằng họ không có quyền xem lịch đó", "Gọi lại sau một khoảng chờ, biết đâu lịch sẽ trả lời sau"},
		examsim.Polish:     {"Zablokowany kalendarz", "Narzędzie kalendarza zwraca `403 Forbidden` dla spotkania, którego użytkownik nie widzi. Co powinien zrobić agent?", "Powiedzieć użytkownikowi, że nie ma dostępu do tego kalendarza", "Ponowić wywołanie po odczekaniu, bo kalendarz może odpowiedzieć później"},
		examsim.Thai:       {"ปฏิทินที่ถูกล็อก", "เครื่องมือปฏิทินตอบ `403 Forbidden` สำหรับการประชุมที่ผู้ใช้ไม่มีสิทธิ์ดู เอเจนต์ควรทำอย่างไร", "บอกผู้ใช้ว่าไม่มีสิทธิ์เข้าถึงปฏิทินนั้น", "เรียกซ้ำอีกครั้งหลังจากรอสักพัก เผื่อปฏิทินจะตอบกลับมาทีหลัง"},
	}
	patterns := map[examsim.Lang][2]string{ // concept, misconception
		examsim.English:    {"access|permission", "{!neg} retr*"},
		examsim.Vietnamese: {"quyền", "{!neg} gọi_lại"},
		examsim.Polish:     {"dostęp*|uprawnie*", "{!neg} ponow*"},
		examsim.Thai:       {"สิทธิ์", "{!neg} เรียกซ้ำ"},
	}
	q := &examsim.AuthoredQuestion{ID: "locked-calendar", Version: 2, Topic: "structured-errors",
		Concepts: []string{"permission-errors"}, Difficulty: "easy", Answer: "A", LessonSource: "permission-errors",
		Texts: map[examsim.Lang]*examsim.AuthoredText{},
		Rubric: &examsim.AuthoredRubric{
			Concepts:       []examsim.AuthoredRule{{ID: "no-access", Role: "decisive", Notes: map[examsim.Lang]string{}, Patterns: map[examsim.Lang][]string{}}},
			Misconceptions: []examsim.AuthoredRule{{ID: "retry-fixes-it", Penalty: 50, Notes: map[examsim.Lang]string{}, Patterns: map[examsim.Lang][]string{}}},
		}}
	for l, t := range texts {
		q.Texts[l] = &examsim.AuthoredText{Title: t[0], Stem: t[1], Options: []examsim.AuthoredOption{
			{Letter: "A", Text: t[2], Explanation: "Right.\n\nOnly the user can get access."},
			{Letter: "B", Text: t[3], Explanation: "A permission error does not pass with time."},
		}}
		q.Rubric.Concepts[0].Notes[l] = "Say that access is missing."
		q.Rubric.Concepts[0].Patterns[l] = []string{patterns[l][0]}
		q.Rubric.Misconceptions[0].Notes[l] = "Retrying cannot grant access."
		q.Rubric.Misconceptions[0].Patterns[l] = []string{patterns[l][1]}
	}
	return q
}
