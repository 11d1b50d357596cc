// Package maxint has small integer helpers.
package maxint

// Max returns the largest of the values; it panics on an empty slice.
func Max(values []int) int {
	best := 0
	for _, v := range values {
		if v > best {
			best = v
		}
	}
	return best
}
