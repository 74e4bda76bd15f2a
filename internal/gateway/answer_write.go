package gateway

import (
	"net/http"
	"time"
)

// DefaultAnswerWriteTimeout bounds one write of an answer to an agent.
const DefaultAnswerWriteTimeout = time.Minute

// deadlineWriter bounds each write of an answer to the agent, and each flush: a write the agent
// does not take within timeout fails, and ends its request. An agent that reads its answer
// slowly, or not at all, would otherwise hold the request open for as long as it likes, and with
// it the share of the budget for answers held at once that the answer took (answerBudget),
// making every other agent's large answers wait. Between writes (a call still running on its
// upstream) there is no deadline: an event stream may wait as long as its call does.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func newDeadlineWriter(w http.ResponseWriter, timeout time.Duration) *deadlineWriter {
	return &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout}
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	defer d.arm()()
	return d.ResponseWriter.Write(p)
}

// Flush flushes what the SDK wrote of an event stream to the agent.
func (d *deadlineWriter) Flush() {
	defer d.arm()()
	_ = d.rc.Flush()
}

// Unwrap is for http.ResponseController.
func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// arm sets the write deadline, and returns what clears it.
func (d *deadlineWriter) arm() func() {
	if d.rc.SetWriteDeadline(time.Now().Add(d.timeout)) != nil {
		return func() {} // a writer that has no deadlines: the request is bounded as before
	}
	return func() { _ = d.rc.SetWriteDeadline(time.Time{}) }
}
