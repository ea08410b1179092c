package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim/classroom"
)

// handleResults shows the host a run's report.
func (s *Server) handleResults(c echo.Context) error {
	res, err := s.hostResults(c)
	if err != nil {
		return err
	}
	return Render(c, http.StatusOK, ResultsPage(res))
}

// hostResults reads the results of the run in the URL for its host.
func (s *Server) hostResults(c echo.Context) (*classroom.Results, error) {
	room, _, err := s.hostRoom(c)
	if err != nil {
		return nil, err
	}
	return classroom.LoadResults(c.Request().Context(), s.Classes, s.Bank, room.ID)
}

// handleResultsCSV downloads every committed answer of a run as CSV
// that spreadsheets open cleanly in any of the four languages.
func (s *Server) handleResultsCSV(c echo.Context) error {
	res, err := s.hostResults(c)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="examsim-session-`+strconv.FormatInt(res.Run.ID, 10)+`.csv"`)
	h.Set("Cache-Control", "no-store")
	c.Response().WriteHeader(http.StatusOK)
	return classroom.WriteCSV(c.Response(), res, pageOf(c).zone())
}
