package gateway_test

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolgate/toolgate/internal/gateway"
)

// A request's body must arrive within the gateway's BodyReadTimeout: a client that declares one
// and trickles it, or never sends it, held its connection (one of --max-connections) for as long
// as it liked, the agent in the SDK's read of the body and anyone else in net/http's read of the
// body its 401 left unread. Once the body is read, the call takes as long as its upstream does.
var _ = Describe("a request whose body does not arrive", Ordered, func() {
	const timeout = 500 * time.Millisecond
	var (
		w        *world
		url      string
		received atomic.Int32
		release  = make(chan struct{})
	)

	BeforeAll(func() {
		w = newWorld("gw-body-", heldUpstream(&received, func() <-chan struct{} { return release }), "slow")
		url = startGateway(func(o *gateway.Options) { o.BodyReadTimeout = timeout })
	})

	// trickle sends a request declaring a body of 1000 bytes with token, sends one byte of it, and
	// returns what the gateway answers before it closes the connection, and how long that took.
	trickle := func(token string) (string, time.Duration) {
		GinkgoHelper()
		conn := trickling(url, token)
		defer func() { _ = conn.Close() }()
		start := time.Now()
		Expect(conn.SetReadDeadline(time.Now().Add(10 * time.Second))).To(Succeed())
		answer, err := io.ReadAll(conn)
		Expect(err).NotTo(HaveOccurred(), "the connection is still open after 10 s; it answered %q", answer)
		return string(answer), time.Since(start)
	}

	It("closes the connection of an agent that trickles its body, saying why", func() {
		answer, took := trickle(w.token)
		Expect(took).To(BeNumerically("<", 5*time.Second))
		Expect(answer).To(And(HavePrefix("HTTP/1.1 400"), ContainSubstring("did not arrive within 500ms")))
		Expect(received.Load()).To(BeZero())
	})

	It("closes the connection of a caller refused 401 whose body never comes once it is answered, not when the "+
		"body's time is up", func() {
		answer, took := trickle("not-a-token")
		Expect(took).To(BeNumerically("<", timeout/2))
		Expect(answer).To(HavePrefix("HTTP/1.1 401"))
	})

	It("refuses, with HTTP 429 and at once, an agent's request while as many of its bodies are arriving as it may "+
		"have calls in flight", func() {
		url := startGateway(func(o *gateway.Options) { o.MaxCallsPerCaller = 2; o.BodyReadTimeout = time.Minute })
		// Each request not answered within a second is being read, and holds one of the two slots
		// until the spec ends; the third is refused.
		tries := 0
		Eventually(func(g Gomega) {
			tries++
			conn := trickling(url, w.token)
			DeferCleanup(conn.Close)
			Expect(conn.SetReadDeadline(time.Now().Add(time.Second))).To(Succeed())
			answer, err := io.ReadAll(conn)
			g.Expect(err).NotTo(HaveOccurred(), "no answer within a second: %q", answer)
			g.Expect(string(answer)).To(And(HavePrefix("HTTP/1.1 429"),
				ContainSubstring("system:serviceaccount:%s:agent has 2 requests whose body is still arriving", w.ns)))
		}).WithTimeout(waitTimeout).Should(Succeed())
		Expect(tries).To(Equal(3), "the first two requests are read, the third refused")
	})

	It("bounds the body alone: a call whose upstream answers after the timeout is answered", func() {
		session := connectedTo(url, w.token)
		time.AfterFunc(4*timeout, func() { close(release) })
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(Equal("answer about notes.txt"))
	})
})

// trickling opens a connection to the gateway at url and sends a request declaring a body of 1000
// bytes with token, and one byte of the body.
func trickling(url, token string) net.Conn {
	GinkgoHelper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	Expect(err).NotTo(HaveOccurred())
	_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{", token)
	Expect(err).NotTo(HaveOccurred())
	return conn
}
