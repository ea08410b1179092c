package store

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// commonPasswordList is the 10,000 most common passwords, one a line, from
// zxcvbn's MIT-licensed frequency list; the file's header says where it
// comes from and carries the licence.
//
//go:embed common_passwords.txt
var commonPasswordList string

// commonPasswords is the list as a set, built on first use.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, 10000)
	for _, line := range strings.Split(commonPasswordList, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			set[line] = struct{}{}
		}
	}
	return set
})

// CommonPassword reports whether a password is on the list of the most
// common ones, in any case: those are the first an attacker tries, so a
// length rule alone lets "password1" and "12345678" through.
func CommonPassword(password string) bool {
	_, ok := commonPasswords()[strings.ToLower(strings.TrimSpace(password))]
	return ok
}

// passwordHasher hashes and checks passwords with bcrypt at one cost: the
// default in production, the minimum in tests (SetPasswordCost), where
// bcrypt at the default cost was most of the CPU time.
type passwordHasher struct {
	mu    sync.Mutex
	cost  int    // 0 means bcrypt.DefaultCost
	dummy []byte // a hash at cost, checked for unknown usernames
}

// SetPasswordCost sets the bcrypt cost of new password hashes, between
// bcrypt.MinCost and bcrypt.MaxCost; existing hashes keep theirs, which
// bcrypt reads from the hash. Tests use bcrypt.MinCost.
func (db *DB) SetPasswordCost(cost int) error {
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		return fmt.Errorf("store: bcrypt cost %d is outside %d to %d", cost, bcrypt.MinCost, bcrypt.MaxCost)
	}
	h := &db.passwords
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cost, h.dummy = cost, nil
	return nil
}

func (h *passwordHasher) settings() (cost int, dummy []byte, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cost == 0 {
		h.cost = bcrypt.DefaultCost
	}
	if h.dummy == nil {
		if h.dummy, err = bcrypt.GenerateFromPassword([]byte("no account has this password"), h.cost); err != nil {
			return 0, nil, err
		}
	}
	return h.cost, h.dummy, nil
}

// hash returns a new bcrypt hash of password.
func (h *passwordHasher) hash(password string) (string, error) {
	cost, _, err := h.settings()
	if err != nil {
		return "", err
	}
	b, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	return string(b), err
}

// matches reports whether password is the one hashed; with no hash (an
// unknown username) it spends the same time on a dummy hash and fails, so
// a wrong username and a wrong password cannot be told apart.
func (h *passwordHasher) matches(hash, password string) bool {
	if hash == "" {
		if _, dummy, err := h.settings(); err == nil {
			_ = bcrypt.CompareHashAndPassword(dummy, []byte(password))
		}
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}
