package store

import (
	_ "embed"
	"strings"
	"sync"
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
