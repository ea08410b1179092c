package exchange

import (
	"context"
	"io/fs"
	"sync"
	"time"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// Resolver finds teachers' questions for questions.Bank.WithAuthored: the
// latest version of each, compiled through the bank's loader (sanitised
// text, compiled rubric) and kept until the question's version changes.
type Resolver struct {
	bank fs.FS
	svc  examsim.AuthoredQuestionService
	mu   sync.Mutex
	byID map[string]*questions.Question
	ver  map[string]int
}

// NewResolver resolves ids from svc with the topics of the bank in bank.
func NewResolver(bank fs.FS, svc examsim.AuthoredQuestionService) *Resolver {
	return &Resolver{bank: bank, svc: svc, byID: map[string]*questions.Question{}, ver: map[string]int{}}
}

// resolveTimeout bounds one lookup: a page that lists answers must not
// hang on a slow database.
const resolveTimeout = 5 * time.Second

// Lookup returns the teacher's question id, or false when there is none
// or it has no language that loads.
func (r *Resolver) Lookup(id string) (*questions.Question, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), resolveTimeout)
	defer cancel()
	q, err := r.svc.Current(ctx, id)
	if err != nil {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if cq, ok := r.byID[id]; ok && r.ver[id] == q.Version {
		return cq, true
	}
	cq, _ := Compile(r.bank, q)
	if cq == nil || len(cq.Texts) == 0 {
		return nil, false
	}
	cq.Authored = true
	r.byID[id], r.ver[id] = cq, q.Version
	return cq, true
}
