package exam

import (
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/examsim/examsim/questions"
)

// Quota is one objective's share of a blueprint exam.
type Quota struct {
	Topic     string
	Objective string
	Weight    int
	Available int // questions in the pool for it
	Drawn     int
}

// ObjectiveOf returns the topic objective a question counts under: the
// objective of its first concept that has one, or "".
func ObjectiveOf(tp *questions.Topic, q *questions.Question) string {
	for _, c := range q.Concepts {
		if o := tp.ObjectiveOf(c); o != "" {
			return o
		}
	}
	return ""
}

// Blueprint draws n questions of pool (question ids) per objective, as the
// real exam draws per domain: each objective of the topics gets a share of
// n in proportion to its weight (largest remainders; ties to the objective
// listed first), no more than the pool has for it, and what an objective
// cannot fill goes to the others by weight. Questions outside every
// objective are not drawn. The same seed draws the same questions; their
// order is left to ShuffleExam.
func Blueprint(bank interface {
	Question(string) (*questions.Question, bool)
}, topics []*questions.Topic, pool []string, n int, seed int64) ([]string, []Quota) {
	type slot struct {
		Quota
		ids []string
	}
	var slots []*slot
	index := map[[2]string]*slot{}
	for _, tp := range topics {
		for _, o := range tp.Objectives {
			s := &slot{Quota: Quota{Topic: tp.ID, Objective: o.ID, Weight: max(o.Weight, 1)}}
			slots = append(slots, s)
			index[[2]string{tp.ID, o.ID}] = s
		}
	}
	for _, id := range pool {
		q, ok := bank.Question(id)
		if !ok {
			continue
		}
		i := slices.IndexFunc(topics, func(tp *questions.Topic) bool { return tp.ID == q.Topic })
		if i < 0 {
			continue
		}
		if s := index[[2]string{q.Topic, ObjectiveOf(topics[i], q)}]; s != nil {
			s.ids = append(s.ids, id)
			s.Available++
		}
	}
	// Hand out n seats: each round gives the objectives that still have
	// questions their share of what is left, by largest remainder.
	left := n
	for left > 0 {
		var open []*slot
		weights := 0
		for _, s := range slots {
			if s.Drawn < s.Available {
				open = append(open, s)
				weights += s.Weight
			}
		}
		if len(open) == 0 {
			break
		}
		type rem struct {
			s    *slot
			frac float64
			pos  int
		}
		var rems []rem
		given := 0
		for i, s := range open {
			exact := float64(left) * float64(s.Weight) / float64(weights)
			whole := min(int(exact), s.Available-s.Drawn)
			s.Drawn += whole
			given += whole
			if s.Drawn < s.Available {
				rems = append(rems, rem{s, exact - float64(int(exact)), i})
			}
		}
		sort.SliceStable(rems, func(i, j int) bool { return rems[i].frac > rems[j].frac })
		for _, r := range rems {
			if given == left {
				break
			}
			r.s.Drawn++
			given++
		}
		if given == 0 {
			break
		}
		left -= given
	}
	// #nosec G115 G404 -- a reproducible draw of what the learner is shown, not a secret.
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x2545f4914f6cdd1d))
	var out []string
	quotas := make([]Quota, len(slots))
	for i, s := range slots {
		ids := append([]string(nil), s.ids...)
		rng.Shuffle(len(ids), func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
		out = append(out, ids[:s.Drawn]...)
		quotas[i] = s.Quota
	}
	return out, quotas
}
