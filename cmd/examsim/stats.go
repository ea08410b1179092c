package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// MinQuestionsPerConcept is how many questions each concept needs in every
// language for the bank to teach it properly.
const MinQuestionsPerConcept = 3

func runQuestionsStats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("questions stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bank, problems := loadBank(fs.Arg(0))
	if bank == nil {
		fmt.Fprintln(stderr, problems.Error())
		return 1
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "warning: %d problems in the bank; run examsim questions check. Counting the questions that loaded.\n", len(problems))
	}
	writeStats(stdout, bank)
	fmt.Fprintln(stdout)
	writeCueStats(stdout, bank)
	return 0
}

// writeCueStats prints the cue check's figures per language, with each
// threshold and "over" where a figure exceeds it.
func writeCueStats(w io.Writer, bank *questions.Bank) {
	over := func(bad bool) string {
		if bad {
			return " over"
		}
		return ""
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "cues\tkey longest (max %.0f%%)\tkey vs distractors (max %+.0f%%)\tfield names: keys / distractors\tclosest stems (max %.2f)\n",
		100*questions.MaxKeyLongestShare, 100*questions.MaxKeyLengthExcess, questions.MaxStemSimilarity)
	for _, c := range questions.Cues(bank) {
		closest := "-"
		if c.MostSimilar.A != nil {
			closest = fmt.Sprintf("%.2f %s / %s%s", c.MostSimilar.Similarity, c.MostSimilar.A.ID, c.MostSimilar.B.ID,
				over(c.MostSimilar.Similarity >= questions.MaxStemSimilarity))
		}
		fmt.Fprintf(tw, "%s\t%.0f%% (%d of %d)%s\t%+.1f%%%s\t%.0f%% / %.0f%%%s\t%s\n", c.Lang,
			100*c.KeyLongestShare(), c.KeyLongest, c.Questions, over(c.KeyLongestShare() > questions.MaxKeyLongestShare),
			100*c.KeyLengthExcess, over(c.KeyLengthExcess > questions.MaxKeyLengthExcess),
			100*c.KeyFieldShare(), 100*c.DistractorFieldShare(), over(c.FieldNameCue()), closest)
	}
	_ = tw.Flush()
}

// writeStats prints the concept-by-language coverage table and the count of
// questions per difficulty.
func writeStats(w io.Writer, bank *questions.Bank) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, topic := range bank.Topics {
		fmt.Fprintf(tw, "%s\t", topic.ID)
		for _, l := range examsim.Langs {
			fmt.Fprintf(tw, "%s\t", l)
		}
		fmt.Fprintln(tw)
		cov := questions.Coverage(bank, topic)
		for _, c := range topic.Concepts {
			fmt.Fprintf(tw, "%s\t", c)
			low := false
			for _, l := range examsim.Langs {
				n := cov[c][l]
				fmt.Fprintf(tw, "%d\t", n)
				low = low || n < MinQuestionsPerConcept
			}
			if low {
				fmt.Fprintf(tw, "fewer than %d\t", MinQuestionsPerConcept)
			}
			fmt.Fprintln(tw)
		}
		fmt.Fprintln(tw)
	}
	_ = tw.Flush() // as with the Fprintf calls around it: a closed stdout has no one to tell
	counts := map[questions.Difficulty]int{}
	for _, q := range bank.Questions {
		counts[q.Difficulty]++
	}
	fmt.Fprintf(w, "difficulty: easy %d, medium %d, hard %d; %d questions in all\n",
		counts[questions.Easy], counts[questions.Medium], counts[questions.Hard], len(bank.Questions))
}
