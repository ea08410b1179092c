package main

import (
	"testing"

	"github.com/examsim/examsim/internal/pgtest"
)

// TestMain lets EXAMSIM_TEST_POSTGRES=1 run these tests on a PostgreSQL of
// their own (webtest); without it no cluster is started.
func TestMain(m *testing.M) { pgtest.Main(m) }
