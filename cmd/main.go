/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"time"

	"github.com/toolgate/toolgate/internal/cliflags"

	// Import all Kubernetes client auth plugins (e.g. Azure, GCP, OIDC, etc.)
	// to ensure that exec-entrypoint and run can make use of them.
	_ "k8s.io/client-go/plugin/pkg/client/auth"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/certs"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/gctuning"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/pprofaddr"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/serving"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
	// +kubebuilder:scaffold:imports
)

var (
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
	// version is set at build time (-ldflags "-X main.version=…", as make image does).
	version = "dev"
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))

	utilruntime.Must(safetyv1alpha1.AddToScheme(scheme))
	// +kubebuilder:scaffold:scheme
}

func main() {
	var metricsAddr string
	var metricsCertPath, metricsCertName, metricsCertKey string
	var webhookCertPath, webhookCertName, webhookCertKey string
	var webhookPort int
	var enableLeaderElection bool
	var probeAddr string
	var leaderElectionNamespace string
	var disableWebhooks bool
	var pprofAddr string
	var usageFlushInterval, usageFlushMaxInterval time.Duration
	var loopMemory int
	loopMemoryTotal := resource.QuantityValue{
		Quantity: *resource.NewQuantity(safety.DefaultLoopMemoryBytes, resource.BinarySI)}
	var webhookHost, webhookClientCA, webhookClientNames string
	var webhookAnyClient bool
	var certRotation bool
	var ledgerDir, ledgerWriter string
	var certSecretNamespace, certSecretName, certDNSName, webhookConfigurationName string
	var secureMetrics bool
	var serviceAccountApprovers []string
	var enableHTTP2 bool
	var peerPort int
	var peerAddress string
	var tlsOpts []func(*tls.Config)
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", "The address the metrics endpoint binds to. "+
		"Use :8443 for HTTPS or :8080 for HTTP, or leave as 0 to disable the metrics service.")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "The address the probe endpoint binds to.")
	flag.BoolVar(&enableLeaderElection, "leader-elect", false,
		"Enable leader election for controller manager. "+
			"Enabling this will ensure there is only one active controller manager.")
	flag.StringVar(&leaderElectionNamespace, "leader-election-namespace", "",
		"Namespace of the leader election lease; required when running outside a cluster with --leader-elect.")
	flag.StringVar(&webhookHost, "webhook-host", "", "Address the webhook server binds to; empty means all interfaces.")
	flag.StringVar(&webhookClientCA, "webhook-client-ca", "",
		"PEM file of the CA that issued the API server's client certificate for webhooks (a mounted Secret). "+
			"Set, a connection without a certificate it verifies is refused at the TLS handshake. "+
			"Required, unless --webhook-any-client says otherwise.")
	flag.BoolVar(&webhookAnyClient, "webhook-any-client", false,
		"Answer admission reviews from any client that reaches the webhook port, without --webhook-client-ca: only "+
			"where the API server presents no client certificate and a NetworkPolicy admits nothing but it "+
			"(docs/webhook.md). Without either flag the manager does not start.")
	flag.StringVar(&webhookClientNames, "webhook-client-name", "",
		"Comma-separated names the API server's client certificate carries (subject common name or DNS name); with "+
			"--webhook-client-ca, a certificate the CA verifies but naming none of them is refused too. Set it when the CA "+
			"also signs other clients' certificates (a cluster CA).")
	flag.StringVar(&ledgerDir, "ledger-dir", "/var/lib/toolgate/ledger",
		"Directory of the decision ledger (on a PersistentVolume); empty disables the ledger.")
	flag.StringVar(&ledgerWriter, "ledger-writer", defaultWriter(),
		"This replica's chain in the ledger; must be unique per replica (default: the pod name).")
	flag.BoolVar(&certRotation, "cert-rotation", true,
		"Generate and rotate the webhook serving certificate and inject its CA; set false to use certificates "+
			"provided in --webhook-cert-path (cert-manager).")
	flag.StringVar(&certSecretNamespace, "cert-secret-namespace", "toolgate-system",
		"Namespace of the webhook certificate Secret.")
	flag.StringVar(&certSecretName, "cert-secret-name", "toolgate-webhook-server-cert",
		"Name of the webhook certificate Secret.")
	flag.StringVar(&certDNSName, "cert-dns-name", "toolgate-webhook-service.toolgate-system.svc",
		"DNS name the serving certificate is issued for.")
	flag.StringVar(&webhookConfigurationName, "webhook-configuration-name", "toolgate-validating-webhook-configuration",
		"ValidatingWebhookConfiguration whose caBundle the operator injects.")
	flag.Func("allow-serviceaccount-approver", "A ServiceAccount (NAMESPACE:NAME) trusted to create ToolApprovals, "+
		"e.g. a bot relaying a person's decision; repeatable. People may always approve, other ServiceAccounts never.",
		func(s string) error {
			if _, err := webhookv1alpha1.ServiceAccountUsername(s); err != nil {
				return err
			}
			serviceAccountApprovers = append(serviceAccountApprovers, s)
			return nil
		})
	flag.BoolVar(&disableWebhooks, "disable-webhooks", false, "Run the controllers without admission webhooks.")
	flag.StringVar(&pprofAddr, "pprof-bind-address", "",
		"Loopback address (127.0.0.1:6060) for the net/http/pprof endpoint; empty, the default, serves none.")
	flag.BoolVar(&secureMetrics, "metrics-secure", true,
		"If set, the metrics endpoint is served securely via HTTPS. Use --metrics-secure=false to use HTTP instead.")
	flag.StringVar(&webhookCertPath, "webhook-cert-path", "", "The directory that contains the webhook certificate.")
	flag.StringVar(&webhookCertName, "webhook-cert-name", "tls.crt", "The name of the webhook certificate file.")
	flag.StringVar(&webhookCertKey, "webhook-cert-key", "tls.key", "The name of the webhook key file.")
	flag.IntVar(&webhookPort, "webhook-port", 9443, "Port the webhook server listens on. "+
		"Defaults to 9443. Set -1 to disable the webhook server.")
	flag.StringVar(&metricsCertPath, "metrics-cert-path", "",
		"The directory that contains the metrics server certificate.")
	flag.StringVar(&metricsCertName, "metrics-cert-name", "tls.crt", "The name of the metrics server certificate file.")
	flag.StringVar(&metricsCertKey, "metrics-cert-key", "tls.key", "The name of the metrics server key file.")
	flag.IntVar(&peerPort, "peer-port", 9444, "Port of the listener other replicas forward AgentToolCall reviews on "+
		"to the one deciding counters (with --leader-elect; authenticated by the webhook's serving certificate).")
	flag.StringVar(&peerAddress, "peer-address", "",
		"Address (host:port) other replicas reach this one's peer listener on; default $POD_IP and --peer-port.")
	flag.BoolVar(&enableHTTP2, "enable-http2", false,
		"If set, HTTP/2 will be enabled for the metrics and webhook servers")
	flag.DurationVar(&usageFlushInterval, "usage-flush-interval", webhookv1alpha1.DefaultUsageFlushInterval,
		"The least time between two writes of one plan's usage counters into its status, and the pause in the "+
			"plan's decisions a write waits for: after a burst, status.usage shows it this long after the last decision.")
	flag.DurationVar(&usageFlushMaxInterval, "usage-flush-max-interval", webhookv1alpha1.DefaultUsageFlushMaxInterval,
		"The longest a write of a plan's usage counters waits for a pause in its decisions: a plan admitting calls "+
			"without a pause has its status written once per this interval. A replica that is killed (not stopped) "+
			"loses up to this long of decisions it had not stored (docs/webhook.md).")
	flag.IntVar(&loopMemory, "loop-memory", safety.DefaultLoopKeys,
		"How many distinct calls per namespace the loop detector remembers (0: the default; at most 1048576). "+
			"A namespace making more distinct calls within the loop window (a minute) than this may over-count its new "+
			"calls, never under-count them (docs/engine.md, Loop detection): raise it for busy namespaces. Each new call "+
			"in a full namespace scans this many, and each call remembered holds up to 1024 timestamps.")
	flag.Var(&loopMemoryTotal, "loop-memory-total",
		"How much memory the loop detector's calls and timestamps may hold over every namespace, as a quantity "+
			"such as 64Mi. Past it the namespace holding the most gives memory back, over-counting its new calls rather than "+
			"under-counting any (docs/engine.md, Loop detection). At least 16Mi, at most 1Ti.")
	showVersion := flag.Bool("version", false, "Print the version and exit.")
	opts := zap.Options{
		Development: true,
	}
	opts.BindFlags(flag.CommandLine)
	parseCommandLine()
	if *showVersion {
		fmt.Printf("toolgate manager %s (%s, %s/%s)\n", version, goruntime.Version(), goruntime.GOOS, goruntime.GOARCH)
		return
	}

	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	setSoftMemoryLimit()

	// if the enable-http2 flag is false (the default), http/2 should be disabled
	// due to its vulnerabilities. More specifically, disabling http/2 will
	// prevent from being vulnerable to the HTTP/2 Stream Cancellation and
	// Rapid Reset CVEs. For more information see:
	// - https://github.com/advisories/GHSA-qppj-fm5r-hxr3
	// - https://github.com/advisories/GHSA-4374-p667-p6c8
	disableHTTP2 := func(c *tls.Config) {
		setupLog.Info("Disabling HTTP/2")
		serving.HTTP1Only(c)
	}

	if !enableHTTP2 {
		tlsOpts = append(tlsOpts, disableHTTP2)
	}

	clientNames := mustClientNames(webhookClientNames)
	restConfig := ctrl.GetConfigOrDie()
	webhookServerOptions := serving.WebhookOptions{
		Host: webhookHost, Port: webhookPort, TLSOpts: tlsOpts, ClientCAFile: webhookClientCA,
		ClientNames: clientNames,
		// With --disable-webhooks nothing is registered on the listener: there is nothing to guard.
		AnyClient: webhookAnyClient || (disableWebhooks && webhookClientCA == ""),
		CertDir:   filepath.Join(os.TempDir(), "k8s-webhook-server", "serving-certs"),
		// The cluster's CA: a client CA bundle holding it needs --webhook-client-name.
		ClusterCAs: clusterCAs(restConfig),
	}
	if len(webhookCertPath) > 0 {
		setupLog.Info("Initializing webhook certificate watcher using provided certificates",
			"webhook-cert-path", webhookCertPath, "webhook-cert-name", webhookCertName, "webhook-cert-key", webhookCertKey)
		webhookServerOptions.CertDir = webhookCertPath
		webhookServerOptions.CertName = webhookCertName
		webhookServerOptions.KeyName = webhookCertKey
	}
	webhookServer, err := serving.NewWebhookServer(webhookServerOptions)
	if err != nil {
		setupLog.Error(err, "Failed to configure the webhook server (--webhook-client-ca, --webhook-client-name, "+
			"--webhook-any-client; docs/webhook.md)")
		os.Exit(1)
	}
	if webhookServerOptions.AnyClient && !disableWebhooks {
		setupLog.Info("WARNING: --webhook-any-client: any client that reaches the webhook port can send admission " +
			"reviews. Admit only the API server with a NetworkPolicy (docs/webhook.md).")
	}

	// The metrics endpoint (enabled in config/default) is served by internal/serving rather than
	// controller-runtime, with the same connection limits as the webhooks. When Secure, only callers
	// the API server authenticates and authorizes for GET /metrics may scrape it (config/rbac).
	// Without --metrics-cert-path the certificate is self-signed.
	metricsOptions := serving.MetricsOptions{
		BindAddress: metricsAddr, Secure: secureMetrics, TLSOpts: tlsOpts,
		CertDir: metricsCertPath, CertName: metricsCertName, KeyName: metricsCertKey,
	}
	if len(metricsCertPath) > 0 {
		setupLog.Info("Initializing metrics certificate watcher using provided certificates",
			"metrics-cert-path", metricsCertPath, "metrics-cert-name", metricsCertName, "metrics-cert-key", metricsCertKey)
	}

	pprofBindAddress, err := pprofaddr.Check(pprofAddr)
	if err != nil {
		setupLog.Error(err, "Invalid flag")
		os.Exit(1)
	}
	// With leader election the leader alone decides plans' counters and the others forward to it.
	ownership := mustCounterOwnership(enableLeaderElection, !disableWebhooks, restConfig, leaderElectionNamespace,
		peerAddress, peerPort, webhookServerOptions)
	managerOptions := ctrl.Options{
		Scheme:           scheme,
		Cache:            operator.CacheOptions(),
		PprofBindAddress: pprofBindAddress,
		// Metrics and probes are served by internal/serving (below), hardened like the webhooks.
		Metrics:                metricsserver.Options{BindAddress: "0"},
		WebhookServer:          webhookServer,
		HealthProbeBindAddress: "0",
		LeaderElection:         enableLeaderElection,
		LeaderElectionID:       leaderElectionID,
		// Leader election guards the controllers only; webhook replicas answer without it.
		LeaderElectionNamespace: leaderElectionNamespace,
		// A manager that stops on SIGTERM hands the lease over at once instead of making the next
		// leader wait out the lease (15 s): main returns right after mgr.Start, and what it does then
		// (closing this replica's own ledger chain) does not need the lease.
		LeaderElectionReleaseOnCancel: true,
	}
	ownership.applyTo(&managerOptions)
	mustSupportedServer(restConfig)
	mgr, err := ctrl.NewManager(restConfig, managerOptions)
	if err != nil {
		setupLog.Error(err, "Failed to start manager")
		os.Exit(1)
	}

	journal, decisionLog, flood, err := openLedger(mgr, ledgerDir, ledgerWriter, certSecretNamespace)
	if err != nil {
		setupLog.Error(err, "Failed to open the ledger", "dir", ledgerDir)
		os.Exit(1)
	}
	if journal != nil {
		defer func() { _ = journal.Close() }()
	}
	counters := &webhookv1alpha1.CounterStore{}
	controllerOptions := controller.Options{Journal: journal, LedgerDir: ledgerDir, Counters: counters}
	if err := controller.SetupWithManager(mgr, controllerOptions); err != nil {
		setupLog.Error(err, "Failed to set up controllers")
		os.Exit(1)
	}
	webhookOptions := webhookv1alpha1.Options{Ledger: decisionLog, Flood: flood,
		ServiceAccountApprovers: serviceAccountApprovers, Counters: counters, UsageFlushInterval: usageFlushInterval,
		UsageFlushMaxInterval: usageFlushMaxInterval, LoopMemory: loopMemory,
		LoopMemoryTotal: loopMemoryTotal.Value()}
	ownership.wire(mgr, &webhookOptions)
	webhooksReady, err := setupWebhooks(mgr, disableWebhooks, certRotation, certs.Options{
		SecretNamespace: certSecretNamespace, SecretName: certSecretName, CertDir: webhookServerOptions.CertDir,
		DNSName: certDNSName, WebhookConfiguration: webhookConfigurationName,
	}, webhookOptions)
	if err != nil {
		setupLog.Error(err, "Failed to set up webhooks")
		os.Exit(1)
	}
	// +kubebuilder:scaffold:builder

	probes := serving.NewProbeServer(probeAddr)
	probes.AddHealthzCheck("healthz", healthz.Ping)
	probes.AddReadyzCheck("readyz", webhooksReady)
	if err := mgr.Add(probes); err != nil {
		setupLog.Error(err, "Failed to set up health probes")
		os.Exit(1)
	}
	if err := serving.AddMetricsServer(mgr, metricsOptions); err != nil {
		setupLog.Error(err, "Failed to set up the metrics server")
		os.Exit(1)
	}

	defer startTracing()()

	setupLog.Info("Starting manager")
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "Failed to run manager")
		os.Exit(1)
	}
}

// mustSupportedServer exits when the API server is older than toolgate needs, naming both versions.
func mustSupportedServer(cfg *rest.Config) {
	if err := operator.CheckServerVersion(cfg); err != nil {
		setupLog.Error(err, "Refusing to start")
		os.Exit(1)
	}
}

// setSoftMemoryLimit keeps the Go heap under the container's memory limit (gctuning.ApplySoftMemoryLimit).
func setSoftMemoryLimit() {
	limit, err := gctuning.ApplySoftMemoryLimit(os.Getenv)
	if err != nil {
		setupLog.Error(err, "unable to set the soft memory limit")
		os.Exit(1)
	}
	if limit > 0 {
		setupLog.Info("soft memory limit set from the container's limit", "bytes", limit)
	}
}

// mustClientNames is --webhook-client-name's names, or the end of the process when it is blanks.
func mustClientNames(flagValue string) []string {
	names, err := serving.SplitNames(flagValue)
	if err != nil {
		setupLog.Error(err, "Invalid flag")
		os.Exit(1)
	}
	return names
}

// clusterCAs is the PEM the manager verifies the API server with (in a cluster, the ServiceAccount's
// ca.crt), or nil when it has none to read.
func clusterCAs(cfg *rest.Config) []byte {
	if len(cfg.CAData) > 0 {
		return cfg.CAData
	}
	if cfg.CAFile == "" {
		return nil
	}
	data, err := os.ReadFile(cfg.CAFile)
	if err != nil {
		setupLog.Error(err, "Reading the cluster's CA, to check the webhook client CA against it")
		return nil
	}
	return data
}

// parseCommandLine reads the flags, and refuses to start on anything else on the command line.
func parseCommandLine() {
	flag.Parse()
	if err := cliflags.FlagsOnly("the toolgate manager", flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
