package difftest

import (
	"os"
	"testing"
)

// needOracle skips a test when libunicorn is not installed, or fails it
// under `make test` (RVSIM_REQUIRE_ARTIFACTS=1), where setup installs it.
func needOracle(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}
