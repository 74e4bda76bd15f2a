package testenv

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/serving"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// Replicas is a control plane whose admission webhooks are served by several managers at once, as
// several webhook replicas behind one Service are: the webhook configuration's URL points at a
// TCP round-robin proxy on loopback, which hands each connection the API server opens to the next
// replica. TLS passes through the proxy untouched (every replica serves the same certificate).
type Replicas struct {
	Cluster
	// Connections counts the connections the proxy handed to each replica.
	Connections []atomic.Int64
	// Writes counts every replica's API writes.
	Writes WriteCounter
	// Sticky, when set, sends every new connection to replica 0, as a Service does when the API
	// server keeps one connection to it: the common case, where replicas rarely race.
	Sticky atomic.Bool
	// Peers are the replicas' peer listeners, and Identities their identities in the leader
	// Lease (LeaderElectionID in OperatorNamespace), which every replica runs for, as main.go's
	// managers do with --leader-elect: the leader runs the controllers and decides counters.
	Peers      []*serving.Peers
	Identities []string
	// stopped marks the replicas StopReplica stopped: the proxy hands them no more connections.
	stopped  []atomic.Bool
	managers []ctrl.Manager
	renewals []*webhookv1alpha1.RenewalTracker

	proxy    net.Listener
	cancels  []context.CancelFunc
	done     []chan error
	proxyWG  sync.WaitGroup
	shutdown chan struct{}
}

// StartReplicas starts the control plane and n managers, each running for the leader Lease with
// its peer listener (Peers[i]) in its identity; setup(r, i, mgr) registers what replica i runs
// (typically all of them the controllers and webhooks: the controllers run on the leader only). Each replica serves HTTP/1.1 only and closes each connection
// after one answer, so the proxy spreads admission requests evenly over the replicas.
func StartReplicas(n int, setup func(r *Replicas, i int, mgr ctrl.Manager) error) (*Replicas, error) {
	env, err := New()
	if err != nil {
		return nil, err
	}
	// Every replica requires the API server's client certificate, as in production.
	c, err := startControlPlane(env)
	if err != nil {
		return nil, err
	}
	r := &Replicas{Cluster: *c, Connections: make([]atomic.Int64, n), stopped: make([]atomic.Bool, n), shutdown: make(chan struct{})}
	cfg := r.Config
	if err := clientgoscheme.AddToScheme(r.Scheme); err != nil {
		return nil, errors.Join(err, env.Stop())
	}
	if err := safetyv1alpha1.AddToScheme(r.Scheme); err != nil {
		return nil, errors.Join(err, env.Stop())
	}
	if r.Client, err = client.New(cfg, client.Options{Scheme: r.Scheme}); err != nil {
		return nil, errors.Join(err, env.Stop())
	}
	wh := &env.WebhookInstallOptions
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, errors.Join(err, env.Stop())
	}
	if _, err := cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: OperatorNamespace}},
		metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, errors.Join(err, env.Stop())
	}
	addrs := make([]string, n)
	for i := range n {
		port, err := freePort(wh.LocalServingHost)
		if err != nil {
			return nil, errors.Join(err, r.Stop())
		}
		addrs[i] = net.JoinHostPort(wh.LocalServingHost, fmt.Sprint(port))
		if err := r.startReplica(i, port, setup); err != nil {
			return nil, errors.Join(err, r.Stop())
		}
	}
	// The proxy takes the address the webhook configuration names.
	if r.proxy, err = net.Listen("tcp", net.JoinHostPort(wh.LocalServingHost, fmt.Sprint(wh.LocalServingPort))); err != nil {
		return nil, errors.Join(fmt.Errorf("listening for the webhook proxy: %w", err), r.Stop())
	}
	r.proxyWG.Add(1)
	go r.serveProxy(addrs)
	for _, addr := range append(addrs, r.proxy.Addr().String()) {
		if err := r.awaitTLS(addr); err != nil {
			return nil, errors.Join(err, r.Stop())
		}
	}
	for i := range r.Connections { // the probe above is not the API server's
		r.Connections[i].Store(0)
	}
	return r, nil
}

func (r *Replicas) startReplica(i, port int, setup func(*Replicas, int, ctrl.Manager) error) error {
	wh := &r.Env.WebhookInstallOptions
	server, err := serving.NewWebhookServer(serving.WebhookOptions{
		Host: wh.LocalServingHost, Port: port, CertDir: wh.LocalServingCertDir,
		ClientCAFile: filepath.Join(r.Dir, WebhookClientCAFile),
		TLSOpts:      []func(*tls.Config){serving.HTTP1Only},
	})
	if err != nil {
		return err
	}
	peerPort, err := freePort(wh.LocalServingHost)
	if err != nil {
		return err
	}
	peers := serving.NewPeers(serving.PeerOptions{Host: wh.LocalServingHost, Port: peerPort, CertDir: wh.LocalServingCertDir})
	identity := webhookv1alpha1.PeerIdentity(fmt.Sprintf("replica-%d", i), net.JoinHostPort(wh.LocalServingHost, strconv.Itoa(peerPort)))
	lock, err := resourcelock.NewFromKubeconfig(resourcelock.LeasesResourceLock, OperatorNamespace, LeaderElectionID,
		resourcelock.ResourceLockConfig{Identity: identity}, r.Config, 10*time.Second)
	if err != nil {
		return err
	}
	tracked := webhookv1alpha1.TrackRenewals(lock)
	r.Peers, r.Identities, r.renewals = append(r.Peers, peers), append(r.Identities, identity), append(r.renewals, tracked)
	mgr, err := ctrl.NewManager(r.Writes.Wrap(r.Config), ctrl.Options{
		LeaderElection: true, LeaderElectionID: LeaderElectionID, LeaderElectionNamespace: OperatorNamespace,
		LeaderElectionResourceLockInterface: tracked, LeaderElectionReleaseOnCancel: true,
		Scheme: r.Scheme,
		// The production cache: what the replicas decide from is what main.go's manager keeps.
		Cache:                  operator.CacheOptions(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: new(true)},
		WebhookServer:          oneRequestPerConnection{server},
	})
	if err != nil {
		return err
	}
	r.managers = append(r.managers, mgr)
	if err := setup(r, i, mgr); err != nil {
		return fmt.Errorf("setting up replica %d: %w", i, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	r.cancels, r.done = append(r.cancels, cancel), append(r.done, done)
	go func() { done <- mgr.Start(ctx) }()
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		return fmt.Errorf("replica %d: caches did not sync", i)
	}
	return nil
}

// Leader is the running replica that holds the leader Lease, or -1 while none does. (A stopped
// manager's Elected channel stays closed.)
func (r *Replicas) Leader() int {
	for i, mgr := range r.managers {
		if r.stopped[i].Load() {
			continue
		}
		select {
		case <-mgr.Elected():
			return i
		default:
		}
	}
	return -1
}

// Owner is replica i's view of which replica decides counters: the leader Lease's holder.
func (r *Replicas) Owner(i int) (*webhookv1alpha1.LeaseOwner, error) {
	cs, err := kubernetes.NewForConfig(r.Config)
	if err != nil {
		return nil, err
	}
	return &webhookv1alpha1.LeaseOwner{Elected: r.managers[i].Elected(), Renewals: r.renewals[i], Leases: cs.CoordinationV1(),
		Namespace: OperatorNamespace, Name: LeaderElectionID, Self: r.Identities[i]}, nil
}

// oneRequestPerConnection closes every webhook connection after its answer, so each admission the
// API server sends opens a new connection and the proxy's round robin spreads requests, not
// just connections, over the replicas.
type oneRequestPerConnection struct{ webhook.Server }

func (s oneRequestPerConnection) Register(path string, hook http.Handler) {
	s.Server.Register(path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		hook.ServeHTTP(w, r)
	}))
}

// serveProxy hands each accepted connection to the next replica, round robin.
func (r *Replicas) serveProxy(addrs []string) {
	defer r.proxyWG.Done()
	roundRobin(r.proxy, addrs, func(next int) int {
		if r.Sticky.Load() {
			return 0
		}
		for k := range addrs { // a stopped replica is a pod the Service no longer sends to
			if i := (next + k) % len(addrs); !r.stopped[i].Load() {
				return i
			}
		}
		return next
	}, r.Connections, nil, &r.proxyWG, r.shutdown)
}

// StopReplica stops replica i as a rollout or a drain stops a pod (its manager's context is
// cancelled, so it releases the leader Lease if it holds it), and the proxy sends it nothing
// more. It returns the manager's error; Stop does not report it again.
func (r *Replicas) StopReplica(i int) error {
	if r.stopped[i].Swap(true) {
		return nil
	}
	r.cancels[i]()
	err := <-r.done[i]
	r.done[i] <- nil // for Stop, which waits for every replica
	return err
}

// roundRobin hands each connection lis accepts to addrs[pick(n)] for the n-th connection modulo
// len(addrs), counting it in counts, and pipes it there until either side closes or shutdown;
// it returns when lis is closed. Requests the API server sends while hold (which may be nil) holds
// them wait at the proxy.
func roundRobin(lis net.Listener, addrs []string, pick func(next int) int, counts []atomic.Int64, hold *requestHold,
	wg *sync.WaitGroup, shutdown <-chan struct{}) {
	next := 0
	for {
		in, err := lis.Accept()
		if err != nil {
			return
		}
		i := pick(next % len(addrs))
		next++
		counts[i].Add(1)
		wg.Go(func() { pipe(in, i, addrs[i], hold, shutdown) })
	}
}

// pipe copies bytes both ways between in and a new connection to addrs[i] until either side
// closes or the proxy shuts down.
func pipe(in net.Conn, i int, addr string, hold *requestHold, shutdown <-chan struct{}) {
	defer func() { _ = in.Close() }()
	out, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return
	}
	defer func() { _ = out.Close() }()
	closed := make(chan struct{}, 2)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				hold.wait(in, i, shutdown)
				if _, err := out.Write(buf[:n]); err != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		closed <- struct{}{}
	}()
	go func() { _, _ = io.Copy(in, out); closed <- struct{}{} }()
	select {
	case <-closed:
	case <-shutdown:
	}
}

// requestHold holds at the proxy what the API server sends to the replicas, from when Hold is
// called until n connections carry something: the request of an agent's call, or the handshake of
// a new connection made for one. Until then no request is answered, so no answer frees a
// connection for another request: n concurrent admissions are each on a connection of their own,
// and the proxy spreads them over the replicas as the Service spreads connections, however a
// loaded machine spaces them.
type requestHold struct {
	mu      sync.Mutex
	want    int
	seen    map[net.Conn]bool
	held    []int64 // per replica
	open    chan struct{}
	results chan []int64
}

// start holds from now until n connections carry something, and returns the number held per
// replica once they are released (replicas is their number).
func (h *requestHold) start(n, replicas int) <-chan []int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.release()
	h.want, h.seen, h.held = n, map[net.Conn]bool{}, make([]int64, replicas)
	h.open, h.results = make(chan struct{}), make(chan []int64, 1)
	return h.results
}

// release lets what is held through; h.mu is held.
func (h *requestHold) release() {
	if h.open == nil {
		return
	}
	close(h.open)
	h.results <- h.held
	h.open = nil
}

// Release lets everything held through now, as a spec's cleanup does.
func (h *requestHold) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.release()
}

// wait counts conn, on replica i, the first time it carries something while h holds, and waits
// until h releases it.
func (h *requestHold) wait(conn net.Conn, i int, shutdown <-chan struct{}) {
	if h == nil {
		return
	}
	h.mu.Lock()
	open := h.open
	if open == nil || h.seen[conn] {
		h.mu.Unlock()
		return
	}
	h.seen[conn] = true
	h.held[i]++
	if len(h.seen) >= h.want {
		h.release()
	}
	h.mu.Unlock()
	select {
	case <-open:
	case <-shutdown:
	}
}

// Stop stops the proxy, every replica, then the control plane.
func (r *Replicas) Stop() error {
	var errs []error
	if r.proxy != nil {
		close(r.shutdown)
		errs = append(errs, r.proxy.Close())
	}
	for i, cancel := range r.cancels {
		cancel()
		if err := <-r.done[i]; err != nil {
			errs = append(errs, fmt.Errorf("replica %d: %w", i, err))
		}
	}
	r.proxyWG.Wait()
	errs = append(errs, r.Env.Stop(), os.RemoveAll(r.Dir))
	return errors.Join(errs...)
}

// freePort returns a port of host that nothing listens on and that no earlier freePort of this
// process returned. The port is closed again when it is handed out, and the processes it is for
// bind it later, so without the second condition the kernel can hand the same port to two of
// them (a manager then failed to start: its listener's port was another's).
func freePort(host string) (int, error) {
	handedOut.Lock()
	defer handedOut.Unlock()
	for range 100 {
		l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		if !handedOut.ports[port] {
			handedOut.ports[port] = true
			return port, nil
		}
	}
	return 0, errors.New("no free port that was not handed out already")
}

// reservePort keeps freePort from returning port: the webhook port envtest chose when the control
// plane started, which a manager or the replicas' proxy binds only later.
func reservePort(port int) {
	handedOut.Lock()
	defer handedOut.Unlock()
	handedOut.ports[port] = true
}

// handedOut is every port freePort returned or reservePort was given.
var handedOut = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}
