package web

import "time"

// SignLegacyIdentity makes the signed identity cookie value of versions
// before server-side sessions, for tests of the upgrade.
func SignLegacyIdentity(key []byte, id int64, now time.Time) string {
	return signIdentity(key, id, now)
}
