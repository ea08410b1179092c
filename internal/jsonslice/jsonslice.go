// Package jsonslice keeps empty lists empty in JSON.
package jsonslice

// NonNil returns s, or an empty slice for nil, so JSON writes [] rather
// than null.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
