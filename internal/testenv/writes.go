package testenv

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/client-go/rest"
)

// WriteCounter counts the API writes (every request that is not a GET) made through the REST
// configs it wraps, by verb and resource, so a test can say what one call costs the API server.
type WriteCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

// Wrap returns a copy of cfg whose requests are counted.
func (w *WriteCounter) Wrap(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method != http.MethodGet {
				w.add(req.Method + " " + resourceOf(req.URL.Path))
			}
			return rt.RoundTrip(req)
		})
	})
	return c
}

func (w *WriteCounter) add(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.counts == nil {
		w.counts = map[string]int{}
	}
	w.counts[key]++
}

// Reset forgets what was counted.
func (w *WriteCounter) Reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.counts = nil
}

// Counts returns the writes by "VERB resource[/subresource]", and their total.
func (w *WriteCounter) Counts() (map[string]int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out, total := map[string]int{}, 0
	for k, v := range w.counts {
		out[k] = v
		total += v
	}
	return out, total
}

// String lists the counts, largest first.
func (w *WriteCounter) String() string {
	counts, _ := w.Counts()
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + ": " + strconv.Itoa(counts[k]) + "\n")
	}
	return b.String()
}

// resourceOf is the resource (and subresource) an API path names:
// /apis/g/v/namespaces/ns/agenttoolcalls/name/status -> agenttoolcalls/status.
func resourceOf(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	i := 2 // api/v1/...
	if len(parts) > 0 && parts[0] == "apis" {
		i = 3
	}
	if len(parts) > i+1 && parts[i] == "namespaces" {
		i += 2
	}
	if len(parts) <= i {
		return path
	}
	res := parts[i]
	if len(parts) > i+2 {
		res += "/" + parts[i+2]
	}
	return res
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
