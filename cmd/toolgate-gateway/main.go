// Command toolgate-gateway is an MCP server over Streamable HTTP in front of the upstream MCP
// servers registered as ToolServers. Agents call tools through it with a ServiceAccount token for
// the gateway's audience; every tools/call becomes an AgentToolCall created with the agent's own
// token, and only admitted calls reach the upstream server. See docs/gateway.md.
package main

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/toolgate/toolgate/internal/cliflags"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/gctuning"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/pprofaddr"
	"github.com/toolgate/toolgate/internal/serving"
	"github.com/toolgate/toolgate/internal/tracing"
)

// version is set at build time (-ldflags "-X main.version=…").
var version = "dev"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "toolgate-gateway:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		listen, audience, namespace, certFile, keyFile, probeAddr, metricsAddr, pprofAddr string
		showVersion, secureMetrics, insecureHTTP                                          bool
		upstreamSessions                                                                  int
		upstreamCallTimeout, answerWriteTimeout                                           time.Duration
		maxUpstreamMessage, gcPercent, maxCallsPerCaller, maxConnections, maxTokenReviews int
		maxAnswerBytesHeld                                                                int64
	)
	flag.StringVar(&listen, "listen", ":8443", "address the MCP endpoint listens on")
	flag.StringVar(&audience, "audience", "toolgate-gateway", "audience callers' ServiceAccount tokens must carry")
	flag.StringVar(&namespace, "namespace", "", "serve only this namespace's agents (a gateway per namespace)")
	flag.StringVar(&certFile, "tls-cert-file", "", "serving certificate (re-read when it changes); without one the "+
		"gateway serves plain HTTP, which it does only on a loopback --listen or with --insecure-serve-http")
	flag.StringVar(&keyFile, "tls-key-file", "", "serving certificate's key")
	flag.BoolVar(&insecureHTTP, "insecure-serve-http", false, "serve plain HTTP, without --tls-cert-file, on an "+
		"address other than loopback: agents' bearer tokens, which the API server also accepts, cross the network "+
		"in the clear")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "address of /healthz and /readyz")
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", "address of /metrics (:8444, say); 0 disables it")
	flag.BoolVar(&secureMetrics, "metrics-secure", true, "serve /metrics over HTTPS (a self-signed certificate) to "+
		"callers the API server authenticates and authorizes for GET /metrics; false serves plain HTTP to anyone")
	flag.StringVar(&pprofAddr, "pprof-bind-address", "",
		"Loopback address (127.0.0.1:6060) for the net/http/pprof endpoint; empty, the default, serves none.")
	flag.IntVar(&upstreamSessions, "upstream-sessions", gateway.DefaultUpstreamSessions,
		"MCP sessions kept with each ToolServer, so that concurrent calls do not queue on one")
	flag.DurationVar(&upstreamCallTimeout, "upstream-call-timeout", gateway.DefaultUpstreamCallTimeout,
		"how long an admitted call may take upstream; it runs to its answer even if the agent hangs up")
	flag.IntVar(&maxUpstreamMessage, "max-upstream-message-bytes", gateway.DefaultMaxUpstreamMessageBytes,
		"the largest message a ToolServer may send (a JSON answer, or one server-sent event), and the most its "+
			"list of tools may take, all pages together; a larger answer fails its call alone; at least 4096")
	flag.Int64Var(&maxAnswerBytesHeld, "max-answer-bytes-held", 0,
		"bytes of upstream answers to agents' calls held at once, beyond 64 KiB each; a larger answer waits, unread, "+
			"for its share; 0 means --max-upstream-message-bytes, its least; each byte held costs about 7 in memory")
	flag.IntVar(&maxCallsPerCaller, "max-calls-per-caller", gateway.DefaultMaxCallsPerCaller,
		"tools/calls one caller (a ServiceAccount) may have in flight through this replica; one more is refused "+
			"with an MCP error before anything is created (and requests whose body is still arriving; one more is "+
			"refused with HTTP 429)")
	flag.IntVar(&maxConnections, "max-connections", serving.DefaultMaxConnections,
		"connections the MCP listener holds at once; at the cap the one idle or reading its headers longest is "+
			"closed for a new one, and a new one is refused when every held one is serving a request; an agent's "+
			"MCP session holds one or two (its requests, a stream of notifications): raise it for more agents per replica; "+
			"seven eighths of it are the requests of authenticated agents served at once, shared equally among the "+
			"agents that want them")
	flag.IntVar(&maxTokenReviews, "max-token-reviews", gateway.DefaultMaxTokenReviews,
		"TokenReviews in flight at once for bearer tokens never verified before (a quarter of them per source "+
			"address), and apart for tokens verified before; a request past either is refused with HTTP 429")
	flag.DurationVar(&answerWriteTimeout, "answer-write-timeout", gateway.DefaultAnswerWriteTimeout,
		"how long one write of an answer may wait for the agent to take it before its request ends")
	flag.IntVar(&gcPercent, "gc-percent", gateway.DefaultGCPercent,
		"the garbage collector's GOGC (GOGC in the environment wins); the heap stays under 90% of the "+
			"container's memory limit given in "+gctuning.MemoryLimitEnv+"; without that limit (or GOMEMLIMIT) "+
			"the runtime's 100 is kept; at least 25")
	flag.BoolVar(&showVersion, "version", false, "print the version and exit")
	opts := zap.Options{}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	if showVersion {
		fmt.Println("toolgate-gateway", version)
		return nil
	}
	if err := cmp.Or(cliflags.FlagsOnly("toolgate-gateway", flag.Args()),
		atLeast(intFlag{"max-connections", maxConnections, 1}, intFlag{"upstream-sessions", upstreamSessions, 1},
			intFlag{"max-token-reviews", maxTokenReviews, 1},
			intFlag{"max-upstream-message-bytes", maxUpstreamMessage, gateway.MinMaxUpstreamMessageBytes},
			intFlag{"gc-percent", gcPercent, gctuning.MinGCPercent})); err != nil {
		return err
	}
	if err := checkServing(listen, certFile, keyFile, insecureHTTP); err != nil {
		return err
	}
	pprofBindAddress, err := pprofaddr.Check(pprofAddr)
	if err != nil {
		return err
	}
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	log := ctrl.Log.WithName("gateway")
	if _, err := gctuning.ApplySoftMemoryLimit(os.Getenv); err != nil {
		return err
	}
	// A higher GOGC only under a soft memory limit, which holds the heap below the container's:
	// without one (no TOOLGATE_MEMORY_LIMIT nor GOMEMLIMIT) the runtime's own pace is kept.
	memoryLimit := gctuning.MemoryLimitInEffect()
	if memoryLimit == 0 && os.Getenv("GOGC") == "" {
		gcPercent = 100
	}
	gogc, fromEnv := gctuning.ApplyGCPercent(os.Getenv, gcPercent)
	log.Info("Garbage collector", "gogc", gogc, "gogcFromEnvironment", fromEnv, "softMemoryLimitBytes", memoryLimit)
	// Spans of the calls it serves, as the manager's of its decisions: when OTEL_* names an endpoint.
	stopTracing, traced, err := tracing.FromEnvironment(context.Background(), "toolgate-gateway", version)
	if err != nil {
		return fmt.Errorf("setting up tracing: %w", err)
	}
	defer stopTracing()
	if traced {
		log.Info("Tracing calls over OTLP")
	}

	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(safetyv1alpha1.AddToScheme(scheme))
	cfg := ctrl.GetConfigOrDie()
	cacheOpts := cache.Options{}
	if namespace != "" {
		cacheOpts.DefaultNamespaces = map[string]cache.Config{namespace: {}}
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Cache:                  cacheOpts,
		Metrics:                metricsserver.Options{BindAddress: "0"}, // served below, as the manager's
		HealthProbeBindAddress: probeAddr,
		PprofBindAddress:       pprofBindAddress,
	})
	if err != nil {
		return fmt.Errorf("creating the manager: %w", err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	identity, err := gateway.Identity(context.Background(), cs.AuthenticationV1().SelfSubjectReviews())
	if err != nil {
		return err
	}
	metricsOpts, err := metricsOptions(metricsAddr, secureMetrics, certFile, keyFile)
	if err != nil {
		return err
	}
	// As the manager's: with its connection limits and, when secure, TokenReviews and
	// SubjectAccessReviews of the scrapers (the gateway's ClusterRole may create both).
	metrics.RegisterGateway()
	if err := serving.AddMetricsServer(mgr, metricsOpts); err != nil {
		return err
	}
	gw, err := gateway.New(gateway.Options{
		Reader:                  mgr.GetClient(),
		Reporter:                mgr.GetClient(),
		Identity:                identity,
		APIServer:               cfg,
		TokenReviews:            cs.AuthenticationV1().TokenReviews(),
		Scheme:                  scheme,
		Mapper:                  mgr.GetRESTMapper(),
		Audience:                audience,
		Namespace:               namespace,
		Version:                 version,
		UpstreamSessions:        upstreamSessions,
		UpstreamCallTimeout:     upstreamCallTimeout,
		MaxUpstreamMessageBytes: maxUpstreamMessage,
		MaxAnswerBytesHeld:      maxAnswerBytesHeld,
		AnswerWriteTimeout:      answerWriteTimeout,
		MaxCallsPerCaller:       maxCallsPerCaller,
		MaxTokenReviews:         maxTokenReviews,
		// An eighth of the connections are left to those still authenticating and to new agents,
		// so that callers holding their shares never fill the listener (fairShares).
		MaxRequestsServed: max(1, maxConnections-maxConnections/8),
		Log:               log,
	})
	if err != nil {
		return err
	}
	defer gw.Close()
	if err := addProbes(mgr); err != nil {
		return err
	}
	server := mcpServer(listen, gw.Handler(), maxConnections)
	serve := func(ctx context.Context) error {
		lis, err := listenMCP(ctx, listen, certFile, keyFile, server.ReadHeaderTimeout)
		if err != nil {
			return err
		}
		log.Info("Serving MCP", "address", lis.Addr().String(), "audience", audience, "tls", certFile != "",
			"costReporter", identity)
		return serveUntilDone(ctx, server, lis)
	}
	if err := mgr.Add(manager.RunnableFunc(serve)); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}

// intFlag is an integer flag's name, value and least value.
type intFlag struct {
	name         string
	value, least int
}

// atLeast is an error naming the first of flags below its least value.
func atLeast(flags ...intFlag) error {
	for _, f := range flags {
		if f.value < f.least {
			return fmt.Errorf("--%s is %d; it must be at least %d", f.name, f.value, f.least)
		}
	}
	return nil
}

// serveUntilDone serves lis until ctx ends, then shuts server down within 10 s.
func serveUntilDone(ctx context.Context, server *http.Server, lis net.Listener) error {
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()
	if err := server.Serve(lis); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listenMCP opens the MCP listener: TLS, when given a pair, with its handshakes bounded as every
// toolgate listener's (at most serving.DefaultMaxPendingHandshakes at once, each for at most
// handshakeTimeout, failures counted rather than each logged), HTTP/2 offered as net/http does;
// plain HTTP otherwise (checkServing allowed it).
func listenMCP(ctx context.Context, addr, certFile, keyFile string,
	handshakeTimeout time.Duration) (net.Listener, error) {
	if certFile == "" {
		return net.Listen("tcp", addr)
	}
	return serving.ListenTLS(ctx, addr, certFile, keyFile,
		serving.HandshakeOptions{Name: "gateway", Timeout: handshakeTimeout},
		func(c *tls.Config) { c.NextProtos = []string{"h2", "http/1.1"} })
}

// metricsOptions are the metrics listener's: HTTP/1.1 only, as the manager's, and the gateway's
// serving certificate when it has one (watched for rotation), so that a scraper can verify whom
// it sends its token to; a self-signed one otherwise.
func metricsOptions(addr string, secure bool, certFile, keyFile string) (serving.MetricsOptions, error) {
	o := serving.MetricsOptions{BindAddress: addr, Secure: secure, TLSOpts: []func(*tls.Config){serving.HTTP1Only}}
	if certFile == "" {
		return o, nil
	}
	if filepath.Dir(certFile) != filepath.Dir(keyFile) {
		return o, fmt.Errorf("--tls-cert-file and --tls-key-file must be in one directory (a mounted Secret) "+
			"for the metrics listener to serve them too: %s, %s", certFile, keyFile)
	}
	o.CertDir, o.CertName, o.KeyName = filepath.Dir(certFile), filepath.Base(certFile), filepath.Base(keyFile)
	return o, nil
}

// addProbes adds /healthz, and /readyz, which is ready once the caches have synced.
func addProbes(mgr manager.Manager) error {
	if err := mgr.AddHealthzCheck("healthz", func(*http.Request) error { return nil }); err != nil {
		return err
	}
	return mgr.AddReadyzCheck("readyz", func(r *http.Request) error {
		if !mgr.GetCache().WaitForCacheSync(r.Context()) {
			return errors.New("caches not synced")
		}
		return nil
	})
}
