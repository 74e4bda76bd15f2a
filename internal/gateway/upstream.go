package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/apimachinery/pkg/types"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// DefaultUpstreamSessions is how many MCP client sessions the gateway keeps per ToolServer. One
// session decodes every answer on one goroutine, so concurrent callers queue behind each other
// on it; a few sessions let them proceed in parallel while bounding what the gateway holds open.
const DefaultUpstreamSessions = 4

// connectTimeout bounds connecting a session to an upstream server.
const connectTimeout = 30 * time.Second

// routesPatience is how long listing what the gateway offers waits for a ToolServer's connect,
// from its start: every request lists, so one that does not answer must not hold them all.
const routesPatience = 3 * time.Second

// upstream is one connected ToolServer: the tools it offered when the gateway connected, and a
// bounded pool of client sessions that connect on first use.
type upstream struct {
	// id is unique per connection, so an offering built from an earlier one (whose tools may
	// differ) is never reused.
	id         uint64
	uid        types.UID
	generation int64
	tools      map[string]*mcp.Tool
	// schemas are what each tool's input schema says of its arguments (toolSchema.arguments).
	schemas map[string]*toolSchema
	// listed is set once tools and schemas are read (dial), before up is shared: every session
	// connected after that is checked to describe them alike (describedAlike).
	listed bool
	// connect connects a session; a pooled one is watched (changes not nil): its upstream's
	// notifications/tools/list_changed are counted in changes.
	connect func(changes *toolChanges) (*mcp.ClientSession, error)
	slots   []slot
	next    atomic.Uint32
	// closed is set first thing by close; session reads it under a slot's lock, so that once
	// close has emptied a slot no session is connected into it again.
	closed atomic.Bool
}

// errUpstreamClosed is what a closed upstream's session returns: the upstream was replaced or
// forgotten, and the ToolServer's current one is to be fetched again.
var errUpstreamClosed = errors.New("the upstream was closed")

// slot is one session of a pool. Its session is read without a lock, so that a call never waits
// behind another call's connect when the pool has a session to give; mu is held while the slot
// connects, so that it connects one session at a time.
type slot struct {
	mu      sync.Mutex
	session atomic.Pointer[pooled]
}

// pooled is a session of a pool, and the changes of its tools its upstream announced on it.
type pooled struct {
	session *mcp.ClientSession
	changes *toolChanges
}

// toolChanges counts the notifications/tools/list_changed an upstream sent on one long-lived
// session, and those it had sent when the session's tools were last listed and compared with
// those the gateway judges calls by (describedAlike). A server that changes a tool in place (the
// Go SDK's AddTool of a tool by the same name, a server that registers tools at run time) says so
// with that notification: a call judged by the tool's old schema (a path with no default) would
// run under its new one (a default .env). So a session with a change not yet compared is used
// for no call until its tools are listed again and found alike (unchanged); otherwise the call is
// not sent, as when a new session describes a tool otherwise.
type toolChanges struct {
	sent     atomic.Uint64
	compared atomic.Uint64
	mu       sync.Mutex // one listing at a time
}

// count is how many notifications have come; none on a session nobody watches (c nil).
func (c *toolChanges) count() uint64 {
	if c == nil {
		return 0
	}
	return c.sent.Load()
}

// listed records that the tools were listed and compared once seen notifications had come; on a
// session nobody watches (c nil) there is nothing to record.
func (c *toolChanges) listed(seen uint64) {
	if c == nil {
		return
	}
	for {
		compared := c.compared.Load()
		if seen <= compared || c.compared.CompareAndSwap(compared, seen) {
			return
		}
	}
}

// session returns a session of the pool, round robin, connecting it if it is not yet (on a
// context of its own, bounded by connectTimeout). While another call connects that slot, the
// call takes a connected session of another slot rather than wait up to connectTimeout for the
// connect; only when the pool has none does it wait.
func (up *upstream) session() (*pooled, error) {
	first := int(up.next.Add(1)) % len(up.slots)
	s := &up.slots[first]
	if up.closed.Load() {
		return nil, errUpstreamClosed
	}
	if session := s.session.Load(); session != nil {
		return session, nil
	}
	if !s.mu.TryLock() {
		for i := 1; i < len(up.slots); i++ {
			if session := up.slots[(first+i)%len(up.slots)].session.Load(); session != nil {
				return session, nil
			}
		}
		s.mu.Lock()
	}
	defer s.mu.Unlock()
	// Under the lock: once close has emptied the slot, no session is connected into it again.
	if up.closed.Load() {
		return nil, errUpstreamClosed
	}
	if session := s.session.Load(); session != nil { // connected by the call waited for
		return session, nil
	}
	changes := &toolChanges{}
	session, err := up.connect(changes)
	if err != nil {
		return nil, err
	}
	p := &pooled{session: session, changes: changes}
	s.session.Store(p)
	go s.watch(p)
	return p, nil
}

// sessionFor is a session for one call to a ToolServer of sessionScope scope: one of the pool's
// (Shared), or one of the call's own (Call), connected now, which the caller ends once the call
// is answered (upstreams.end), so that no state the server keeps per session reaches another call.
//
// A pooled session whose upstream said its tools changed is listed again first (unchanged),
// within ctx; maxListed bounds that listing. A session of the call's own is listed when it
// connects, just before the call, and is not watched.
func (up *upstream) sessionFor(ctx context.Context, scope safetyv1alpha1.ToolServerSessionScope,
	maxListed int) (*mcp.ClientSession, error) {
	if scope == safetyv1alpha1.ToolServerSessionScopeCall {
		if up.closed.Load() {
			return nil, errUpstreamClosed
		}
		return up.connect(nil)
	}
	p, err := up.session()
	if err != nil {
		return nil, err
	}
	if err := up.unchanged(ctx, p, maxListed); err != nil {
		return nil, err
	}
	return p.session, nil
}

// unchanged lists p's tools again when its upstream said they changed since they were last listed
// on it, and refuses p if it describes them otherwise than the gateway judges their calls by
// (errRouteChanged: the caller forgets up, and the next call is judged by the tools listed anew).
// A listing that fails takes p out of the pool: nothing is known of its tools.
func (up *upstream) unchanged(ctx context.Context, p *pooled, maxListed int) error {
	c := p.changes
	if c.count() == c.compared.Load() {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := c.count()
	if seen == c.compared.Load() { // listed by the call waited for
		return nil
	}
	if err := up.describedAlike(ctx, p.session, maxListed); err != nil {
		up.drop(p.session)
		_ = p.session.Close()
		return fmt.Errorf("after the upstream said its tools changed: %w", err)
	}
	c.listed(seen)
	return nil
}

// watch empties s of session once the SDK has ended it, so that the slot connects a new session
// on next use; the pool's other sessions, and the calls in flight on them, are left alone.
//
// The SDK's own signal is the one to go by, not a call's error: ClientSession.Wait returns once
// the session's connection is done, which in v1.8.0 is when its transport failed for good (an
// answer that is not JSON-RPC, a server that no longer knows the session, a stream that cannot
// be resumed: streamableClientConn.fail), when its writer broke with no call in flight, or when
// it was closed. Many call errors end nothing: an HTTP 500, 502, 503, 504 or 429, a request that
// did not reach the server, a stream cut short before the call's answer ("request terminated
// without response"); dropping the session for those would make each such call (which an agent
// can cause with arguments that crash the upstream's handler) cost a reconnect, and fail the
// other agents' calls that had just taken the session.
func (s *slot) watch(p *pooled) {
	_ = p.session.Wait()
	s.session.CompareAndSwap(p, nil)
	_ = p.session.Close() // ended already: this only releases what the ClientSession holds
}

// closeLater marks up closed at once and closes its sessions in the background.
func (up *upstream) closeLater() {
	up.closed.Store(true)
	go up.close()
}

// close closes up's sessions, and marks it closed, so that it connects no session again. The SDK
// closes a session gracefully, waiting for the calls still in flight on it (each up to
// UpstreamCallTimeout), so an upstream that is replaced or forgotten is closed in the background
// (closeLater), and no slot's lock is held while a session closes.
func (up *upstream) close() {
	up.closed.Store(true)
	var sessions []*mcp.ClientSession
	for i := range up.slots {
		s := &up.slots[i]
		s.mu.Lock() // after a connect in progress: it stores its session, or sees closed first
		if p := s.session.Swap(nil); p != nil {
			sessions = append(sessions, p.session)
		}
		s.mu.Unlock()
	}
	for _, session := range sessions {
		_ = session.Close()
	}
}

// upstreams keeps one upstream per ToolServer, reconnecting when its spec changes (or it was
// deleted and made again under its name) or the server no longer knows one of its sessions.
// A connect runs on its own, and an upstream is closed, never under the lock (closing one sends
// each of its sessions' DELETE to a server that may not answer), so one ToolServer that does not answer delays
// only the requests that wait for it, each at most as long as its own context allows; after a
// failure it is not tried again until its back-off has passed.
type upstreams struct {
	impl *mcp.Implementation
	// client connects the sessions of calls of their own (sessionScope Call); each pooled session
	// has a client of its own, whose handler counts its tools' changes (toolChanges).
	client     *mcp.Client
	httpClient *http.Client
	sessions   int
	// maxMessage bounds one message from a ToolServer: httpClient (limitAnswers) bounds every
	// answer, and the SDK's own bound on one server-sent event, at the same size, every stream
	// limitAnswers cannot answer for.
	maxMessage int
	ids        atomic.Uint64
	mu         sync.Mutex
	byName     map[string]*upstream
	attempts   map[string]*attempt
	closed     bool
	// ending are the calls' own sessions (sessionScope Call) being ended; close waits for them.
	ending sync.WaitGroup
}

// attempt is a connect to one ToolServer at one spec: in progress until done is closed, then
// failed (a success replaces it by the upstream).
type attempt struct {
	uid        types.UID
	generation int64
	started    time.Time
	done       chan struct{}
	err        error     // once done
	retryAt    time.Time // once done: no new attempt before
	failures   int       // in a row, for the back-off
}

// The back-off after a failed connect: the first wait, doubled per failure in a row up to the
// most. Meanwhile the ToolServer's tools are not offered and its calls fail at once.
const (
	connectBackoff    = 2 * time.Second
	maxConnectBackoff = 2 * time.Minute
)

func newUpstreams(httpClient *http.Client, version string, sessions, maxMessage int) *upstreams {
	impl := &mcp.Implementation{Name: "toolgate-gateway", Version: version}
	return &upstreams{
		maxMessage: maxMessage,
		impl:       impl,
		client:     mcp.NewClient(impl, nil),
		httpClient: listenOrNothing(countListed(limitAnswers(recordDeliveries(oneCallRefusals(timeUpstream(httpClient))),
			int64(maxMessage)))),
		sessions: sessions,
		byName:   map[string]*upstream{},
		attempts: map[string]*attempt{},
	}
}

// defaultUpstreamHTTPClient keeps enough idle connections per upstream server for the pool's
// sessions and their concurrent calls; http.DefaultTransport keeps two, so under concurrency
// every other call would open a new connection.
func defaultUpstreamHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}

// get returns ts's upstream, connecting it if needed: it waits for a connect in progress (its
// own or another request's) until that ends or ctx does, and, when patience is not 0, for no
// longer than patience from the connect's start: a connect that takes longer is left to run
// while the request goes on without this ToolServer.
func (u *upstreams) get(ctx context.Context, ts *safetyv1alpha1.ToolServer, patience time.Duration) (*upstream, error) {
	for {
		u.mu.Lock()
		if u.closed {
			u.mu.Unlock()
			return nil, errors.New("the gateway is closing")
		}
		if up, ok := u.byName[ts.Name]; ok && up.generation == ts.Generation && up.uid == ts.UID {
			u.mu.Unlock()
			return up, nil
		}
		stale := u.byName[ts.Name]
		delete(u.byName, ts.Name)
		a := u.attempts[ts.Name]
		if a != nil && (a.uid != ts.UID || a.generation != ts.Generation) {
			a = nil // a new spec is tried at once, whatever the old one's back-off
		}
		if a == nil || isClosed(a.done) && !time.Now().Before(a.retryAt) {
			failures := 0
			if a != nil {
				failures = a.failures
			}
			a = &attempt{uid: ts.UID, generation: ts.Generation, started: time.Now(), done: make(chan struct{}),
				failures: failures}
			u.attempts[ts.Name] = a
			go u.connect(ts.DeepCopy(), a)
		}
		u.mu.Unlock()
		if stale != nil {
			stale.closeLater()
		}
		if err := await(ctx, a, patience); err != nil {
			return nil, fmt.Errorf("connecting to ToolServer %s: %w", ts.Name, err)
		}
		u.mu.Lock()
		failed, err := u.attempts[ts.Name] == a, a.err
		u.mu.Unlock()
		if failed && err != nil {
			return nil, err
		}
		// Connected (or superseded by a newer spec): look again.
	}
}

// await waits until a is done, ctx ends, or (when patience is not 0) patience has passed since a
// started. a.started is set before a is shared and never changes, so it is read without the lock.
func await(ctx context.Context, a *attempt, patience time.Duration) error {
	if isClosed(a.done) { // ended, perhaps long ago (a failure in its back-off): no deadline races it
		return nil
	}
	if patience > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, a.started.Add(patience),
			fmt.Errorf("still connecting after %v", patience))
		defer cancel()
	}
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-a.done:
		return nil
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// connect runs attempt a for ts and records its outcome.
func (u *upstreams) connect(ts *safetyv1alpha1.ToolServer, a *attempt) {
	up, err := u.dial(ts)
	u.mu.Lock()
	current := u.attempts[ts.Name] == a // not superseded by a newer spec, nor the gateway closed
	switch {
	case !current:
	case err != nil:
		a.err = err
		a.failures++
		a.retryAt = time.Now().Add(min(connectBackoff<<min(a.failures-1, 16), maxConnectBackoff))
	default:
		delete(u.attempts, ts.Name)
		u.byName[ts.Name] = up
	}
	close(a.done)
	u.mu.Unlock()
	if !current && up != nil {
		up.close()
	}
}

// dial connects the first session of ts's pool and lists its tools, on a context of its own:
// the requests that wait for it may give up, the connect does not.
func (u *upstreams) dial(ts *safetyv1alpha1.ToolServer) (*upstream, error) {
	name, url := ts.Name, ts.Spec.Endpoint()
	up := &upstream{id: u.ids.Add(1), uid: ts.UID, generation: ts.Generation, tools: map[string]*mcp.Tool{},
		schemas: map[string]*toolSchema{}, slots: make([]slot, u.sessions)}
	up.connect = func(changes *toolChanges) (*mcp.ClientSession, error) {
		// On a context of its own: a connect is bounded by connectTimeout alone, whoever waits
		// for it, and not even a context without the request's cancellation would do, since the
		// SDK keeps the agent's MCP protocol version in it, which must not become the version
		// the gateway asks the upstream for.
		cctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		client := u.client
		if changes != nil {
			// Notified on the standalone stream (protocol versions before 2026-07-28, which the
			// SDK opens with a GET unless disabled) or a subscriptions/listen (later ones, which
			// the SDK opens when the client has this handler and the server announces changes).
			client = mcp.NewClient(u.impl, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changes.sent.Add(1) }})
		}
		session, err := client.Connect(cctx, &mcp.StreamableClientTransport{
			Endpoint: url, HTTPClient: u.httpClient, DisableStandaloneSSE: changes == nil, MaxEventSize: u.maxMessage,
		}, nil)
		if err != nil {
			return nil, fmt.Errorf("connecting to ToolServer %s at %s: %w", name, url, err)
		}
		if up.listed {
			seen := changes.count()
			if err := up.describedAlike(cctx, session, u.maxMessage); err != nil {
				_ = session.Close()
				return nil, fmt.Errorf("ToolServer %s: %w", name, err)
			}
			changes.listed(seen)
		}
		return session, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	p, err := up.session()
	if err != nil {
		return nil, err
	}
	seen := p.changes.count()
	tools, err := listTools(ctx, p.session, u.maxMessage)
	if err != nil {
		up.close()
		return nil, fmt.Errorf("listing the tools of ToolServer %s: %w", name, err)
	}
	for _, tool := range tools {
		up.tools[tool.Name] = tool
		schema := readToolSchema(tool.InputSchema)
		up.schemas[tool.Name] = &schema
	}
	p.changes.listed(seen)
	up.listed = true
	return up, nil
}

// describedAlike checks that session, a new session of up, describes up's tools with the input
// schemas up read when it listed them (on its first session), which are what every call of them
// is judged by: the declared keys and the defaults the upstream fills in. Each session may reach
// another server process (a rolling update behind a Service sends new sessions to new pods, a
// restarted server is connected anew by a sessionScope Call ToolServer's next call), and one of
// another version may fill in a default the gateway never wrote into the call: a call judged as
// reading nothing would read the new version's default .env. A tool it describes otherwise, or
// lacks, is errRouteChanged: the call is not sent, and up is forgotten (Gateway.session), so the
// next call lists the tools again. A tool it adds is not offered until then, and harms nothing.
// maxListed bounds the listing, all pages together (listTools).
func (up *upstream) describedAlike(ctx context.Context, session *mcp.ClientSession, maxListed int) error {
	tools, err := listTools(ctx, session, maxListed)
	if err != nil {
		return fmt.Errorf("listing the tools of a new session: %w", err)
	}
	described := make(map[string]bool, len(up.tools))
	for _, tool := range tools {
		if _, known := up.tools[tool.Name]; !known {
			continue
		}
		if !up.describes(tool.Name, tool) {
			return fmt.Errorf("the session describes tool %q with another input schema than when the gateway "+
				"listed it (another version of the server, or the tool changed?): %w", tool.Name, errRouteChanged)
		}
		described[tool.Name] = true
	}
	for name := range up.tools {
		if !described[name] {
			return fmt.Errorf("the session does not offer tool %q, which the gateway listed (another version of "+
				"the server, or the tool removed?): %w", name, errRouteChanged)
		}
	}
	return nil
}

// listTools lists session's tools, every page, refusing a listing of more than max bytes (as the
// upstream sent them: listedBytes): the bound on one message. The pages are each bounded so
// (limitAnswers), but not their number, and the tools listed are held as long as the upstream is:
// an upstream that never stopped giving pages, each a new tool as large as one message, took the
// gateway's memory, and every agent's calls with it. No server's list of tools comes near the
// bound.
func listTools(ctx context.Context, session *mcp.ClientSession, max int) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	read := new(atomic.Int64)
	for tool, err := range session.Tools(context.WithValue(ctx, listedBytesKey{}, read), nil) {
		if err != nil {
			return nil, err
		}
		if read.Load() > int64(max) {
			return nil, fmt.Errorf("its tools take more than %d bytes, the bound on one message from a ToolServer "+
				"(--max-upstream-message-bytes)", max)
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// listedBytesKey keys the count of the bytes of the answers to a listing's requests (listTools).
type listedBytesKey struct{}

// countListed returns c with the bytes of each answer to a request whose context carries a
// listedBytesKey counted there as they are read: a page's tools are decoded from bytes the SDK
// read whole first, so they are counted when the tools are handed out. Counted so, the listing's
// bound costs nothing, where marshalling each tool again cost a quarter of a listing's
// allocations (BenchmarkCallScopeSession, docs/benchmarks.md).
func countListed(c *http.Client) *http.Client {
	return wrapTransport(c, func(next http.RoundTripper) http.RoundTripper { return listedBytes{next: next} })
}

type listedBytes struct{ next http.RoundTripper }

func (l listedBytes) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	if read, ok := req.Context().Value(listedBytesKey{}).(*atomic.Int64); ok && err == nil {
		resp.Body = &countedBody{ReadCloser: resp.Body, read: read}
	}
	return resp, err
}

// countedBody adds the bytes read of it to read.
type countedBody struct {
	io.ReadCloser
	read *atomic.Int64
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read.Add(int64(n))
	return n, err
}

// describes says whether up lists the tool named name with tool's input schema.
func (up *upstream) describes(name string, tool *mcp.Tool) bool {
	listed, ok := up.tools[name]
	return ok && reflect.DeepEqual(listed.InputSchema, tool.InputSchema)
}

// failed handles a call to up, named name, that failed with err on session. A session the SDK has
// ended its slot drops on its own (slot.watch), and at once when the call's error says so. But a
// server that no longer knows a session (HTTP 404) has restarted (or dropped it) and may offer
// other tools now: then up is forgotten, so that the next call reconnects and lists its tools
// again, and its other sessions, most likely gone with it, are closed. Only the upstream's answer
// says that a session is missing, never the agent's request, and only when a ping on the session
// is refused too (oneCallRefusals): a 404 to what a call asks for fails that call alone.
func (u *upstreams) failed(name string, up *upstream, session *mcp.ClientSession, err error) {
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, mcp.ErrSessionMissing) {
		up.drop(session) // ended: the call sent again (forward) must not get it back before slot.watch sees it
	}
	if errors.Is(err, mcp.ErrSessionMissing) {
		u.forget(name, up)
	}
}

// drop empties the slot that holds session, which has ended, so that it connects a new one on
// next use; slot.watch closes it.
func (up *upstream) drop(session *mcp.ClientSession) {
	for i := range up.slots {
		if p := up.slots[i].session.Load(); p != nil && p.session == session {
			up.slots[i].session.CompareAndSwap(p, nil)
		}
	}
}

// forget drops an upstream, so that the next call reconnects and lists its tools again. It is
// closed in the background: the call that found it gone is answered, and reported, at once.
func (u *upstreams) forget(name string, up *upstream) {
	u.mu.Lock()
	mine := u.byName[name] == up
	if mine {
		delete(u.byName, name)
	}
	u.mu.Unlock()
	if mine {
		up.closeLater()
	}
}

// close closes every upstream; a connect still running closes what it makes, and no new one
// starts.
func (u *upstreams) close() {
	u.mu.Lock()
	ups := u.byName
	u.byName, u.closed = map[string]*upstream{}, true
	clear(u.attempts)
	u.mu.Unlock()
	for _, up := range ups {
		up.close()
	}
	u.ending.Wait()
}

// end ends the session of one call (sessionScope Call) in the background: the call is answered
// at once, while ending it sends the server a DELETE, which the SDK bounds (5 s). Once close has
// begun (it waits for ending) the session is ended here instead: a WaitGroup may not gain work
// from zero while it is waited for.
func (u *upstreams) end(session *mcp.ClientSession) {
	u.mu.Lock()
	closing := u.closed
	if !closing {
		u.ending.Add(1)
	}
	u.mu.Unlock()
	if closing {
		_ = session.Close()
		return
	}
	go func() {
		defer u.ending.Done()
		_ = session.Close()
	}()
}
