package classroom

import "github.com/examsim/examsim"

// Scored says whether an answer's explanation was scored: there was one,
// and a rubric gave a verdict per concept. A teacher's question without a
// rubric keeps explanations unscored; results, averages and the CSV leave
// them out of every score, never counting them as 0.
func Scored(a *examsim.ClassAnswer) bool {
	return a.Explanation != "" && len(a.Concepts) > 0
}
