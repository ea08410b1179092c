package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/examsim/examsim"
)

// TestAdminRoleErrors: a role change the admin can fix re-shows the user
// list with the reason and its status; an account that is not there gets
// the error page instead.
func TestAdminRoleErrors(t *testing.T) {
	a := newClassApp(t)
	admin := a.account("the_admin", examsim.RoleAdmin)
	a.account("some_learner", examsim.RoleLearner)
	users := admin.get("/admin/users")
	action := users.doc.Find(`[data-username=some_learner] form`).AttrOr("action", "")
	self := users.doc.Find(`[data-username=the_admin] form`).AttrOr("action", "")
	for _, tc := range []struct {
		name, action, role string
		status             int
		reason             string // in the form error; "" for the error page
	}{
		{"no such role", action, "wizard", http.StatusBadRequest, `"wizard" is not a role`},
		{"the last admin", self, "learner", http.StatusConflict, "This is the last admin"},
		{"no such account", "/admin/users/999999/role", "learner", http.StatusNotFound, ""},
	} {
		p := admin.post("/admin/users", tc.action, url.Values{"role": {tc.role}})
		listed := p.doc.Find(`[data-testid=user-row]`).Length()
		switch {
		case p.status != tc.status:
			t.Errorf("%s: status %d, want %d", tc.name, p.status, tc.status)
		case tc.reason != "" && (!strings.Contains(p.text("[data-testid=form-error]"), tc.reason) || listed != 2):
			t.Errorf("%s: form error %q with %d users listed, want %q above both", tc.name, p.text("[data-testid=form-error]"), listed, tc.reason)
		case tc.reason == "" && listed != 0:
			t.Errorf("%s: the user list is shown, want the error page", tc.name)
		}
	}
}
