package main

import (
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/toolgate/toolgate/internal/serving"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// leaderElectionID is the manager's leader Lease.
const leaderElectionID = "a5e6bf89.toolgate.dev"

// serviceAccountNamespaceFile is where a pod learns its namespace.
const serviceAccountNamespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

// counterOwnership is how the replicas agree on the one that decides plans' counters: the holder
// of the leader Lease, whose identity carries its peer address, so the others can forward their
// AgentToolCall reviews to it (docs/webhook.md, "Several replicas").
type counterOwnership struct {
	lock      *webhookv1alpha1.RenewalTracker
	peers     *serving.Peers
	namespace string
	identity  string
}

// mustCounterOwnership is newCounterOwnership with leader election, nil otherwise; it exits on an
// error.
func mustCounterOwnership(leaderElection, webhooks bool, cfg *rest.Config, namespace, advertise string, port int,
	certs serving.WebhookOptions) *counterOwnership {
	if !webhooks {
		return nil
	}
	if !leaderElection {
		setupLog.Info("Leader election is off: this replica decides plans' counters on its own. Run exactly one " +
			"replica so, or set --leader-elect (docs/webhook.md, Several replicas).")
		return nil
	}
	o, err := newCounterOwnership(cfg, namespace, advertise, port, certs)
	if err != nil {
		setupLog.Error(err, "Failed to set up the counters' ownership")
		os.Exit(1)
	}
	return o
}

// newCounterOwnership builds the leader Lease lock with a peer address in its identity, and the
// peer listener, on the webhook server's host. advertise is the address other replicas reach this
// one's listener on; empty means the pod's IP ($POD_IP) and port.
func newCounterOwnership(cfg *rest.Config, namespace, advertise string, port int,
	certs serving.WebhookOptions) (*counterOwnership, error) {
	if namespace == "" {
		data, err := os.ReadFile(serviceAccountNamespaceFile)
		if err != nil {
			return nil, errors.New("--leader-election-namespace is required outside a cluster with --leader-elect")
		}
		namespace = strings.TrimSpace(string(data))
	}
	if advertise == "" {
		host := os.Getenv("POD_IP")
		if host == "" {
			return nil, errors.New("--peer-address (or the POD_IP environment variable) is required with --leader-elect")
		}
		advertise = net.JoinHostPort(host, strconv.Itoa(port))
	}
	hostname, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	identity := webhookv1alpha1.PeerIdentity(hostname+"_"+string(uuid.NewUUID()), advertise)
	// The renew deadline controller-runtime uses by default; the lock's client times out by it.
	lock, err := resourcelock.NewFromKubeconfig(resourcelock.LeasesResourceLock, namespace, leaderElectionID,
		resourcelock.ResourceLockConfig{Identity: identity}, cfg, 10*time.Second)
	if err != nil {
		return nil, err
	}
	peers := serving.NewPeers(serving.PeerOptions{Host: certs.Host, Port: port,
		CertDir: certs.CertDir, CertName: certs.CertName, KeyName: certs.KeyName})
	return &counterOwnership{lock: webhookv1alpha1.TrackRenewals(lock), peers: peers, namespace: namespace,
		identity: identity}, nil
}

// applyTo makes the manager elect its leader with the ownership's lock; nil changes nothing.
func (o *counterOwnership) applyTo(opts *ctrl.Options) {
	if o != nil {
		opts.LeaderElectionResourceLockInterface = o.lock
	}
}

// wire gives the webhooks the ownership once the manager exists; nil leaves this replica the one
// that decides. It exits on an error.
func (o *counterOwnership) wire(mgr ctrl.Manager, opts *webhookv1alpha1.Options) {
	if o == nil {
		return
	}
	cs, err := kubernetes.NewForConfig(mgr.GetConfig())
	if err != nil {
		setupLog.Error(err, "Failed to set up the counters' ownership")
		os.Exit(1)
	}
	opts.Owner = &webhookv1alpha1.LeaseOwner{Elected: mgr.Elected(), Renewals: o.lock, Leases: cs.CoordinationV1(),
		Namespace: o.namespace, Name: leaderElectionID, Self: o.identity}
	opts.Peers = o.peers
}
