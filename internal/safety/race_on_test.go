//go:build race

package safety

// raceEnabled says the tests run under the race detector, which with -cover's atomic counters
// makes the loop detector's tests about twenty times slower: the random ones run fewer rounds
// there, and `make test` runs them in full without it too.
const raceEnabled = true
