package scoring

import "github.com/examsim/examsim"

// Thai, written with or without spaces.
var langThai = &language{
	lang: examsim.Thai,
	cues: cueWords{
		blockers:     []string{"แต่", "เพราะ", "จึง", "ดังนั้น", "และ", "ซึ่ง", "เนื่องจาก", "ส่วน", "เพื่อ", "หรือ", "แล้วก็", "ทำให้", "จนกว่า"},
		judgements:   []string{"ช่วย", "จำเป็น", "ได้ผล", "มีประโยชน์", "ถูกต้อง", "เหมาะ", "แก้", "เปลี่ยน", "ใช่ทางออก", "ทางที่ถูก", "ทางที่ดี", "ควรทำ", "คุ้ม", "สมเหตุสมผล", "เวิร์ก"},
		selfJudging:  []string{"ไร้ประโยชน์", "ไม่มีประโยชน์", "เปล่าประโยชน์", "สูญเปล่า", "ไม่มีความหมาย"},
		refuteAhead:  []string{"แทนที่จะ", "แทนการ", "ไม่ใช่", "ผิดที่", "หลีกเลี่ยง", "ราวกับ", "แกล้ง", "ไม่ควรจะ"},
		refuteBehind: []string{"มีแต่จะ", "เป็นแค่", "ก็แค่ได้", "ก็ได้แค่", "จะได้แค่", "ก็ไม่เจอ", "จะพัง", "จะแค่", "จะซ่อน", "ซ่อน", "ปิดบัง", "ทำให้เสีย", "เสียเวลา", "จะผิด", "เป็นความผิดพลาด", "เป็นการผิด", "เป็นสิ่งที่ผิด", "ไม่ถูกต้อง", "ทำให้เข้าใจผิด", "เป็นกับดัก", "เป็นความผิดพลาดคลาสสิก", "เป็นความผิดพลาดที่พบบ่อย"},
		suppose:      []string{"ถ้า", "หาก", "สมมติ", "ในกรณีที่", "กรณีที่", "สมมุติ", "นึกว่า", "เคยคิดว่า"},
		weak:         []string{"ไม่มี", "หากไม่มี", "ถ้าไม่มี"},
		modals:       []string{"คงจะ", "อาจจะ", "ก็คง"},
		purpose:      []string{"เพื่อ"},
		states:       []string{"ชั่วคราว", "แป๊บเดียว"},
		cause:        []string{"เพราะ"},
		one:          []string{"เดียว", "หนึ่ง"},
		and:          []string{"และ"},
	},
	negations:     []string{"ไม่", "อย่า", "ไม่ต้อง", "ไม่ควร", "ห้าม", "มิได้", "ไร้ประโยชน์"},
	letterCues:    []string{"ข้อ", "แบบ", "เหมือน", "ตัวเลือก"},
	endorsements:  []string{"ดี", "ถูกต้อง", "ปลอดภัย", "โอเค", "ใช้ได้", "เหมาะ", "ก็ได้", "ทางลัด", "สมเหตุสมผล", "แข็งแรง"},
	verdicts:      []string{"ก็โอเค", "ก็ได้", "เป็นทางลัดที่ดี", "เป็นทางเลือกที่ปลอดภัย", "ก็ได้ผล", "ก็ใช้ได้", "ก็ดี", "สมเหตุสมผล", "เป็นค่าเริ่มต้นที่ปลอดภัย"},
	others:        []string{"ข้ออื่น", "ตัวเลือกอื่น", "ข้อที่เหลือ", "ตัวเลือกที่เหลือ"},
	othersOpening: []string{"อันอื่น", "ที่เหลือ"},
	domain: []string{"ผลลัพธ์", "ข้อผิดพลาด", "ผิดพลาด", "ลองใหม่", "เรียกใหม่", "จัดการ", "สิทธิ์", "ล้มเหลว",
		"โมเดล", "คำค้น", "เอเจนต์"},
	hedges:         []string{"น่าจะ", "มั้ง", "คิดว่า", "ไม่แน่ใจ", "ค่อนข้างมั่นใจ", "อาจจะเป็น"},
	doubts:         []string{"ไม่แน่ใจ", "ลังเล", "ไม่ค่อยรู้", "ไม่เข้าใจ", "ไม่รู้", "หรือเปล่า", "สงสัย"},
	joiners:        []string{"และ", "หรือ"},
	choicePrefixes: []string{"เพราะ", "ครับ", "ค่ะ", "คะ", "จ้ะ"}, // "C ครับ …": a reason or polite particle right after the letter
	// A Thai action noun ("การจบ task ไม่ใช่ทางที่ถูก") is judged over the
	// English term inside it; "timeout เป็นแค่ noise" says what the term
	// itself is, it refutes no proposal.
	actionNounPrefix: "การ",
	describesPrefix:  "เป็นแค่",
	exceptions: map[string][]string{
		"ว่า":  {"ง"}, // not "ว่าง", empty
		"อย่า": {"ง"}, // not "อย่าง", like
	},
	sufficiency:  []string{"ก็พอ", "พอแล้ว", "ก็เพียงพอ", "เพียงพอแล้ว"},
	onlyWords:    []string{"แค่", "เท่านั้น", "อย่างเดียว"},
	mattersWords: []string{"สำคัญ", "ที่สำคัญ"},
	notApplicable: map[string]string{
		"articleLetters":     "Thai has no capital letters",
		"choiceWords":        "Thai is written without spaces: a choice is read from the text after the letter (choicePrefixes)",
		"commonWords":        "typo matching is for Latin words only",
		"abbreviations":      "Thai does not end abbreviations with a full stop",
		"notFromEnglish":     "every English cue reads the same inside Thai",
		"soWord":             "only Vietnamese has a word that means both \"should\" and \"so\"",
		"soAfter":            "only Vietnamese",
		"soCauses":           "only Vietnamese",
		"onlyWord":           "Thai \"แค่\" phrases are cues of their own (refuteBehind)",
		"conditionalEndings": "Thai verbs do not inflect",
	},
}
