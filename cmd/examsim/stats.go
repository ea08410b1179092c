package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
	"github.com/examsim/examsim/store"
)

// MinQuestionsPerConcept is how many questions each concept needs in every
// language for the bank to teach it properly.
const MinQuestionsPerConcept = 3

func runQuestionsStats(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("questions stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "", "also print item statistics (facility, discrimination, how each option drew) from the answers in this database")
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
	if *dbPath == "" {
		return 0
	}
	// Never create an empty database at a mistyped path.
	if _, err := os.Stat(*dbPath); err != nil && !store.IsPostgresURL(*dbPath) {
		fmt.Fprintf(stderr, "examsim questions stats: no database at %s: %v\nPass the --db that examsim serve uses.\n", *dbPath, err)
		return 1
	}
	db, err := store.OpenExisting(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(stderr, "examsim questions stats: cannot open the database %s: %v\n", store.DisplayName(*dbPath), err)
		return 1
	}
	defer db.Close()
	responses, err := store.NewItemStatsService(db).Responses(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "examsim questions stats: reading answers: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout)
	writeItemStats(stdout, examsim.ComputeItemStats(bank.ItemKeys(), responses))
	return 0
}

// flagWords are the item flags as the command prints them.
var flagWords = map[examsim.ItemFlag]string{
	examsim.FlagTooEasy:           "too easy (facility > 0.90)",
	examsim.FlagTooHard:           "too hard (facility < 0.20)",
	examsim.FlagLowDiscrimination: "discrimination < 0.20",
	examsim.FlagUnusedDistractor:  "nobody picks distractor",
	examsim.FlagStrongPickWrong:   "strong learners prefer distractor",
}

// writeItemStats prints what the item statistics page shows: a line per
// question, the flags, and how each option drew on answered questions.
func writeItemStats(w io.Writer, stats []examsim.ItemStats) {
	num := func(r float64) string {
		if math.IsNaN(r) {
			return "-"
		}
		return fmt.Sprintf("%.2f", r)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "item\tlearners\tfacility\tdiscrimination\tflags")
	for _, s := range stats {
		var flags []string
		for _, f := range s.Flags {
			word := flagWords[f]
			switch f {
			case examsim.FlagUnusedDistractor:
				word += " " + strings.Join(s.UnusedOptions, ",")
			case examsim.FlagStrongPickWrong:
				word += " " + strings.Join(s.StrongPickOptions, ",")
			}
			flags = append(flags, word)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", s.ID, s.Respondents, num(s.Facility()), num(s.Discrimination), strings.Join(flags, "; "))
	}
	_ = tw.Flush()
	for _, s := range stats {
		if s.Respondents == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s: options (picked, strong of %d, weak of %d)\n", s.ID, s.StrongN, s.WeakN)
		for _, o := range s.Options {
			key := ""
			if o.Key {
				key = " key"
			}
			fmt.Fprintf(w, "  %s%s\t%d\t%d\t%d\n", o.Letter, key, o.Picked, o.Strong, o.Weak)
		}
	}
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
	fmt.Fprintf(tw, "cues\tkey longest (max %.0f%%)\tkey vs distractors (max %+.0f%%)\tfield names: keys / distractors\tclosest stems (max %.2f)\ttitles naming the key\todd one out\n",
		100*questions.MaxKeyLongestShare, 100*questions.MaxKeyLengthExcess, questions.MaxStemSimilarity)
	for _, c := range questions.Cues(bank) {
		closest := "-"
		if c.MostSimilar.A != nil {
			closest = fmt.Sprintf("%.2f %s / %s%s", c.MostSimilar.Similarity, c.MostSimilar.A.ID, c.MostSimilar.B.ID,
				over(c.MostSimilar.Similarity >= questions.MaxStemSimilarity))
		}
		fmt.Fprintf(tw, "%s\t%.0f%% (%d of %d)%s\t%+.1f%%%s\t%.0f%% / %.0f%%%s\t%s\t%d%s\t%d%s\n", c.Lang,
			100*c.KeyLongestShare(), c.KeyLongest, c.Questions, over(c.KeyLongestShare() > questions.MaxKeyLongestShare),
			100*c.KeyLengthExcess, over(c.KeyLengthExcess > questions.MaxKeyLengthExcess),
			100*c.KeyFieldShare(), 100*c.DistractorFieldShare(), over(c.FieldNameCue()), closest,
			len(c.TitleGiveaways), over(len(c.TitleGiveaways) > 0), len(c.OddOpenings), over(len(c.OddOpenings) > 0))
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
