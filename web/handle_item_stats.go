package web

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/questions"
)

// itemStatsRow is one question on the item statistics page.
type itemStatsRow struct {
	Q     *questions.Question
	Stats examsim.ItemStats
}

// handleItemStats shows, for instructors and admins, how every question
// performs on the answers stored so far, with the items worth a look
// flagged.
func (s *Server) handleItemStats(c echo.Context) error {
	if _, err := s.teacher(c); err != nil {
		return err
	}
	if s.ItemStats == nil {
		return examsim.E(examsim.ENOTFOUND, "error.page_not_found")
	}
	responses, err := s.ItemStats.Responses(c.Request().Context())
	if err != nil {
		return err
	}
	// The bank's questions, then the teacher's own and shared ones, alike.
	qs, keys := s.Bank.Questions, s.Bank.ItemKeys()
	for _, q := range s.authoredPickable(c) {
		qs, keys = append(qs[:len(qs):len(qs)], q), append(keys, authoredItemKey(q))
	}
	var rows []itemStatsRow
	for i, st := range examsim.ComputeItemStats(keys, responses) {
		rows = append(rows, itemStatsRow{Q: qs[i], Stats: st})
	}
	return Render(c, http.StatusOK, ItemStatsPage(rows))
}

// percentText is a share as a whole percentage, or a dash without data.
func percentText(part, whole int) string {
	if whole == 0 {
		return "–"
	}
	return strconv.Itoa(int(math.Round(100*float64(part)/float64(whole)))) + "%"
}

// discriminationText is a correlation to two places, or a dash.
func discriminationText(r float64) string {
	if math.IsNaN(r) {
		return "–"
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// itemFlagText words a flag in the page's language.
func itemFlagText(ctx context.Context, st examsim.ItemStats, f examsim.ItemFlag) string {
	switch f {
	case examsim.FlagUnusedDistractor:
		return t(ctx, "itemstats.flag_unused_distractor", "Options", joinLetters(st.UnusedOptions))
	case examsim.FlagStrongPickWrong:
		return t(ctx, "itemstats.flag_strong_prefer_distractor", "Options", joinLetters(st.StrongPickOptions))
	}
	return t(ctx, "itemstats.flag_"+string(f))
}

func joinLetters(ls []string) string { return strings.Join(ls, ", ") }

// itemAnchor is the id of an item's section on the page.
func itemAnchor(id string) string { return "item-" + id }

func anyFlagged(rows []itemStatsRow) bool {
	for _, r := range rows {
		if len(r.Stats.Flags) > 0 {
			return true
		}
	}
	return false
}
