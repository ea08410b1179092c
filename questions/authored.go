package questions

// WithAuthored returns a copy of the bank whose Question also finds
// teachers' questions through lookup (only cmd/ and test harnesses wire
// it). The bank's own questions, topics and lists are shared, unchanged:
// Questions still lists the bank's alone, so practice and exams draw from
// the bank, and a teacher's question is reached through the quiz that
// uses it.
func (b *Bank) WithAuthored(lookup func(id string) (*Question, bool)) *Bank {
	out := *b
	out.authored = lookup
	return &out
}
