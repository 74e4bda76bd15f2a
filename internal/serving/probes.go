package serving

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/healthz"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// ProbeServer serves /healthz and /readyz (and their /name sub-checks, as controller-runtime's
// does) with the same limits as every other listener.
type ProbeServer struct {
	addr            string
	limits          Limits
	healthz, readyz map[string]healthz.Checker
}

// NewProbeServer listens on addr once started; "" or "0" turns probes off.
func NewProbeServer(addr string) *ProbeServer {
	return &ProbeServer{addr: addr, limits: SmallLimits, healthz: map[string]healthz.Checker{},
		readyz: map[string]healthz.Checker{}}
}

// AddHealthzCheck adds a liveness check; call before Start.
func (p *ProbeServer) AddHealthzCheck(name string, c healthz.Checker) { p.healthz[name] = c }

// AddReadyzCheck adds a readiness check; call before Start.
func (p *ProbeServer) AddReadyzCheck(name string, c healthz.Checker) { p.readyz[name] = c }

// NeedLeaderElection is false: every replica reports its own health.
func (p *ProbeServer) NeedLeaderElection() bool { return false }

// Start serves until ctx ends.
func (p *ProbeServer) Start(ctx context.Context) error {
	if p.addr == "" || p.addr == "0" {
		return nil
	}
	lis, err := net.Listen("tcp", p.addr)
	if err != nil {
		return fmt.Errorf("health probe listener: %w", err)
	}
	mux := http.NewServeMux()
	for path, checks := range map[string]map[string]healthz.Checker{"/healthz": p.healthz, "/readyz": p.readyz} {
		h := &healthz.Handler{Checks: checks}
		mux.Handle(path, http.StripPrefix(path, h))
		mux.Handle(path+"/", http.StripPrefix(path, h))
	}
	logf.Log.WithName("probes").Info("Serving health probes", "address", lis.Addr().String())
	return serve(ctx, p.limits.Server(ctx, "probes", mux), lis, 5*time.Second)
}
