package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// admin returns the signed-in admin.
func (s *Server) admin(c echo.Context) (*examsim.Learner, error) {
	if s.Accounts == nil {
		return nil, examsim.E(examsim.ENOTFOUND, "error.page_not_found")
	}
	l := pageOf(c).Learner
	if l == nil || l.Anonymous() {
		return nil, examsim.E(examsim.EUNAUTHORIZED, "class.error_login")
	}
	if l.Role != examsim.RoleAdmin {
		return nil, examsim.E(examsim.EFORBIDDEN, "admin.error_not_admin")
	}
	return l, nil
}

// handleAdminUsers lists the accounts with their roles.
func (s *Server) handleAdminUsers(c echo.Context) error {
	if _, err := s.admin(c); err != nil {
		return err
	}
	users, err := s.Accounts.ListAccounts(c.Request().Context())
	if err != nil {
		return err
	}
	notice := ""
	if name := c.QueryParam("changed"); name != "" {
		for _, u := range users {
			if u.Username == name {
				p := pageOf(c)
				notice = p.Catalog.T(p.Lang, "admin.saved", "Name", u.Username, "Role", p.Catalog.T(p.Lang, "admin.role_"+string(u.Role)))
			}
		}
	}
	return Render(c, http.StatusOK, AdminUsersPage(users, notice, ""))
}

// handleAdminRole changes one account's role.
func (s *Server) handleAdminRole(c echo.Context) error {
	if _, err := s.admin(c); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return examsim.E(examsim.ENOTFOUND, "error.learner_not_found")
	}
	role, ok := examsim.ParseRole(c.FormValue("role"))
	if !ok {
		err = examsim.E(examsim.EINVALID, "admin.error_bad_role", "Role", c.FormValue("role"))
	} else {
		err = s.Accounts.SetRole(ctx, id, role)
	}
	if err != nil {
		if examsim.ErrorCode(err) == examsim.ENOTFOUND {
			return err // no such account: the error page, not the list
		}
		return formError(c, err, func(status int, reason string) error {
			users, lerr := s.Accounts.ListAccounts(ctx)
			if lerr != nil {
				return lerr
			}
			return Render(c, status, AdminUsersPage(users, "", reason))
		})
	}
	u, err := s.Learners.FindLearner(ctx, id)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/users?changed="+u.Username)
}
