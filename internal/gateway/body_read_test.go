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

	// trickle sends a request declaring a body of 1000 bytes with token to the gateway at url, sends
	// one byte of it, and returns what the gateway answers before it closes the connection, and how
	// long that took.
	trickle := func(url, token string) (string, time.Duration) {
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
		answer, took := trickle(url, w.token)
		Expect(took).To(BeNumerically("<", 5*time.Second))
		Expect(answer).To(And(HavePrefix("HTTP/1.1 400"), ContainSubstring("did not arrive within 500ms")))
		Expect(received.Load()).To(BeZero())
	})

	It("closes the connection of a caller refused 401 whose body never comes once it is answered, not when the "+
		"body's time is up", func() {
		// The body's time is a minute here: trickle's 10 s to see the connection closed then tell
		// the close on the answer from the one at the body's deadline however slow the machine (a
		// bound of half of 500 ms was one a loaded machine could pass).
		url := startGateway(func(o *gateway.Options) { o.BodyReadTimeout = time.Minute })
		answer, _ := trickle(url, "not-a-token")
		Expect(answer).To(HavePrefix("HTTP/1.1 401"))
	})

	It("refuses, with HTTP 429 and at once, an agent's request while as many of its bodies are arriving as it may "+
		"have calls in flight", func() {
		const bodyTimeout = 5 * time.Second
		url := startGateway(func(o *gateway.Options) { o.MaxCallsPerCaller = 2; o.BodyReadTimeout = bodyTimeout })
		connectedTo(url, w.token) // the agent's token reviewed: no TokenReview delays the requests below
		// Three requests at once, each trickling its body. The two the gateway reads hold their slots
		// until their body's time is up, and are then answered 400 saying so: the proof that they were
		// being read. The third, whichever it is, is refused 429 before that. (Taking a request
		// unanswered within a second for one being read would fail whenever a loaded machine took longer
		// than that to refuse the third: a fourth was then refused too.)
		type answered struct {
			answer string
			err    error
		}
		answers := make(chan answered, 3)
		for range 3 {
			conn := trickling(url, w.token)
			DeferCleanup(conn.Close)
			Expect(conn.SetReadDeadline(time.Now().Add(bodyTimeout + waitTimeout))).To(Succeed())
			go func() {
				answer, err := io.ReadAll(conn)
				answers <- answered{string(answer), err}
			}()
		}
		var order []string
		for range 3 {
			var a answered
			Eventually(answers).WithTimeout(bodyTimeout + 2*waitTimeout).Should(Receive(&a))
			Expect(a.err).NotTo(HaveOccurred(), "the connection is still open after %s; it answered %q",
				bodyTimeout+waitTimeout, a.answer)
			switch {
			case strings.HasPrefix(a.answer, "HTTP/1.1 429"):
				Expect(a.answer).To(ContainSubstring(
					"system:serviceaccount:%s:agent has 2 requests whose body is still arriving", w.ns))
				order = append(order, "refused")
			case strings.HasPrefix(a.answer, "HTTP/1.1 400"):
				Expect(a.answer).To(ContainSubstring("did not arrive within %s", bodyTimeout))
				order = append(order, "read")
			default:
				Fail("unexpected answer " + a.answer)
			}
		}
		Expect(order).To(Equal([]string{"refused", "read", "read"}),
			"the first two requests are read until their body's time is up, the third refused before that")
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
