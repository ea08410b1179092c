package main

import (
	"runtime/debug"
	"sync"
	"testing"
)

// Loading raises GOGC for its garbage and must put it back, even when tests
// load banks at once: a raised GOGC would quadruple the server's idle heap.
func TestLoadBankRestoresGCPercent(t *testing.T) {
	for _, mine := range []int{137, 800, -1} { // below, above and off: only ever raised
		loadBanksAtOnce(t, mine)
	}
}

func loadBanksAtOnce(t *testing.T, mine int) {
	prev := debug.SetGCPercent(mine)
	defer debug.SetGCPercent(prev)
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			if _, problems := loadBank(""); len(problems) > 0 {
				t.Error(problems.Error())
			}
		})
	}
	wg.Wait()
	if got := debug.SetGCPercent(mine); got != mine {
		t.Errorf("GOGC after loading is %d, want it back at %d", got, mine)
	}
}
