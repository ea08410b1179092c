package scoring_test

import (
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// explanations are realistic learner answers of about 500 characters.
var explanations = map[examsim.Lang]string{
	examsim.English:    "The tool reached the database and the query ran fine; it simply found no customer with that email, so an empty array is a valid empty result and not an access failure. Retrying cannot change the answer, the same query returns the same nothing every time, and escalating wastes a human's time. The real fix is in the tool: return isError false with resultCount 0 and a text that says the query executed, so agents can tell it apart from a timeout. ",
	examsim.Vietnamese: "Tool đã truy vấn được database và không tìm thấy khách hàng nào khớp email, nên mảng rỗng là valid empty result chứ không phải access failure. Retry không giúp gì vì cùng một truy vấn sẽ luôn trả về kết quả rỗng, còn escalate thì làm mất thời gian của người. Cách sửa đúng nằm ở tool: trả isError false, resultCount 0 và một câu nói rõ truy vấn đã chạy thành công, để agent phân biệt được với lỗi timeout hay mất kết nối.",
	examsim.Polish:     "Narzędzie połączyło się z bazą i zapytanie wykonało się poprawnie, po prostu nie znalazło klienta z tym adresem, więc pusta tablica to prawidłowy pusty wynik, a nie błąd dostępu. Ponawianie nic nie da, bo to samo zapytanie zawsze zwróci to samo, a eskalacja marnuje czas człowieka. Naprawić trzeba narzędzie: zwracać isError false z resultCount 0 i tekstem, że zapytanie się wykonało, żeby agent odróżnił to od przekroczenia czasu.",
	examsim.Thai:       "tool เชื่อมต่อฐานข้อมูลได้และ query ทำงานสำเร็จ เพียงแต่ไม่พบลูกค้าที่ตรงกับอีเมลนี้ ผลลัพธ์ว่างจึงเป็น valid empty result ไม่ใช่ access failure การ retry ไม่ช่วยอะไรเพราะ query เดิมจะได้ผลลัพธ์ว่างเหมือนเดิมทุกครั้ง และการ escalate ก็เสียเวลาคน วิธีแก้ที่ถูกต้องคือให้ tool ส่ง isError false พร้อม resultCount 0 และข้อความบอกว่า query ทำงานแล้ว เพื่อให้ agent แยกออกจาก timeout ได้",
}

// BenchmarkScore scores a 500-character explanation in each language against
// the real rubric of a seeded question.
func BenchmarkScore(b *testing.B) {
	fsys, name := questions.Embedded()
	bank, _ := questions.Load(fsys, name)
	q, ok := bank.Question("empty-result-retry-loop")
	if !ok {
		b.Skip("the seeded question is not in the bank")
	}
	for _, lang := range examsim.Langs {
		tx := q.Text(lang)
		if tx == nil {
			b.Fatalf("no %s text", lang)
		}
		text := explanations[lang]
		for len([]rune(text)) < 500 {
			text += " " + text
		}
		text = string([]rune(text)[:500])
		// The first score compiles the rubric (and, in Polish, loads the
		// lemma table): a one-off, kept out of the figures.
		if _, err := tx.Rubric().Score(text); err != nil {
			b.Fatal(err)
		}
		b.Run(string(lang), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tx.Rubric().Score(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
