//go:build !race

package safety

// raceEnabled says the tests run under the race detector (race_on_test.go).
const raceEnabled = false
