package main

import "strings"

// excerptOf shortens a response body for a failure message.
func excerptOf(s string) string {
	if len(s) > 200 {
		s = s[:200]
	}
	return strings.Join(strings.Fields(s), " ")
}
