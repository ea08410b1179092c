package scoring

import "github.com/examsim/examsim"

// Vietnamese, written with or without diacritics.
var langVietnamese = &language{
	lang: examsim.Vietnamese,
	cues: cueWords{
		blockers: []string{"nhưng", "vì", "bởi", "do_đó", "vì_vậy", "vậy", "mà", "chứ", "và", "thì", "rồi", "khi",
			"để", "còn", "tuy", "sau_đó", "cho_nên", "nên_là", "do", "song", "hoặc"},
		judgements:   []string{"cần", "cần_thiết", "giúp", "có_ích", "ích", "tác_dụng", "hiệu_quả", "đúng", "hợp_lý", "ổn", "giải_quyết", "thay_đổi", "được", "đáng", "khả_thi", "là_cách", "nên_làm"},
		selfJudging:  []string{"vô_ích", "vô_nghĩa", "uổng_công", "lãng_phí"},
		refuteAhead:  []string{"thay_vì", "thay_cho", "sai_khi", "sai_lầm_khi", "tránh", "không_phải", "chứ_không", "đừng_có", "giả_vờ", "như_thể"},
		refuteBehind: []string{"sẽ_chỉ", "chỉ_làm", "chỉ_là", "chỉ_cho_ra", "chỉ_trả_về", "chỉ_nhận_được", "chỉ_thu_được", "chỉ_khiến", "chỉ_vứt", "chỉ_giấu", "chỉ_lộ", "chỉ_tổ", "chỉ_gây", "sẽ_hỏng", "chỉ_làm_chậm", "sẽ_che", "che_giấu", "che_đi", "làm_mất", "là_sai", "là_sai_lầm", "là_cái_bẫy", "là_anti_pattern", "sẽ_giấu", "giấu_đi", "gây_hiểu_lầm", "là_không_đúng", "là_lãng_phí", "là_sai_lầm_kinh_điển", "là_lỗi_kinh_điển", "là_đúng_anti_pattern", "đúng_là_anti_pattern"},
		suppose:      []string{"nếu", "giả_sử", "giả_như", "nếu_như", "hễ", "trường_hợp", "lỡ_như", "giá_mà", "cứ_tưởng", "tưởng_là", "em_tưởng", "mình_tưởng"},
		weak:         []string{"không_có", "thiếu"},
		modals:       []string{"may_ra", "có_lẽ", "thì_đã"},
		purpose:      []string{"để"},
		states:       []string{"tạm_thời", "tạm", "nhất_thời", "thoáng_qua", "chập_chờn"},
		cause:        []string{"vì", "do", "bởi"},
		one:          []string{"một"},
		and:          []string{"và"},
	},
	negations:     []string{"không", "chẳng", "chả", "chưa", "đừng", "không_cần", "không_nên", "vô_ích"},
	letterCues:    []string{"như", "giống", "phương_án", "đáp_án", "câu", "ý"},
	endorsements:  []string{"cũng_được", "được", "tốt", "ổn", "hay", "là_đúng", "cũng_đúng", "mới_đúng", "đúng_hơn", "đúng_rồi", "hợp_lý", "an_toàn", "chắc_chắn", "gọn", "lối_tắt", "có_lý"},
	verdicts:      []string{"cũng_được", "cũng_ổn", "là_ổn", "là_cách_hay", "là_cách_gọn", "là_lựa_chọn_an_toàn", "là_mặc_định_an_toàn", "là_lối_tắt", "cũng_tốt", "là_có_lý"},
	others:        []string{"các_phương_án_còn_lại", "các_phương_án_khác", "phương_án_còn_lại", "các_đáp_án_khác", "các_đáp_án_còn_lại", "mấy_phương_án_kia", "ba_phương_án_kia", "cac_phuong_an_con_lai", "cac_phuong_an_khac", "cac_dap_an_khac"},
	othersOpening: []string{"mấy_cái_kia", "còn_lại", "những_cái_khác", "mấy_cái_còn_lại", "con_lai", "may_cai_kia"},
	domain: []string{"lỗi", "kết_quả", "thử_lại", "gọi_lại", "chạy_lại", "gửi_lại", "lặp_lại", "quyền",
		"xử_lý", "truy_vấn", "phản_hồi", "thất_bại", "báo_lỗi", "thông_báo"},
	hedges:        []string{"chắc_là", "chắc", "em_nghĩ", "mình_nghĩ", "tôi_nghĩ", "hình_như", "có_lẽ", "có_thể_là", "phân_vân"},
	doubts:        []string{"không_chắc", "chưa_chắc", "phân_vân", "không_rõ", "không_hiểu", "không_biết", "không_dám_chắc", "lăn_tăn"},
	joiners:       []string{"và", "hoặc"},
	choiceWords:   []string{"vì"},
	abbreviations: []string{"vd", "v.v"},
	// "nên" is "should", and also "so": after a comma with words before it,
	// after "cho", or once the clause has its verb "là" or a cause.
	soWord:   "nên",
	soAfter:  []string{"cho"},
	soCauses: []string{"là", "vì", "do", "bởi", "bị"},
	exceptions: map[string][]string{
		"chắc": {"chắn", "chan"}, // "chắc chắn" is "certainly", the opposite of a hedge
	},
	sufficiency:  []string{"là_đủ", "đủ_rồi", "chỉ_cần", "la_du", "du_roi", "chi_can"},
	onlyWords:    []string{"chỉ_có", "duy_nhất", "chi_co", "duy_nhat"},
	mattersWords: []string{"quan_trọng", "quan_trong", "mới_quan_trọng"},
	notApplicable: map[string]string{
		"articleLetters":     "no Vietnamese word is a capital A–D alone",
		"commonWords":        "Vietnamese words are short: none reaches the length typo matching starts at",
		"choicePrefixes":     "a choice is read from the whole word after the letter (choiceWords)",
		"notFromEnglish":     "every English cue reads the same inside Vietnamese",
		"onlyWord":           "Vietnamese \"chỉ\" phrases are cues of their own (refuteBehind)",
		"conditionalEndings": "Vietnamese verbs do not inflect",
		"actionNounPrefix":   "only Thai forms action nouns with a prefix inside a word",
		"describesPrefix":    "only Thai",
	},
}
