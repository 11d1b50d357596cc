package maxint

import "testing"

func TestMaxPositive(t *testing.T) {
	if got := Max([]int{1, 5, 3}); got != 5 {
		t.Fatalf("Max = %d, want 5", got)
	}
}
