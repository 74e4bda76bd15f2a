package ledger

import "testing"

func TestSmoke(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxSegmentBytes = 2000
	cfg.Compress = true
	j := mustOpen(t, cfg)
	appendN(t, j, 30)
	res, err := j.Maintain(clock.Now())
	t.Logf("%+v %v", res, err)
	t.Logf("%+v", j.Stats())
	rep := mustVerify(t, cfg.Dir)
	t.Log(rep.Summary())
	t.Log(dumpChains(rep))
	t.Log(segmentFiles(t, chainDirOf(cfg)))
}
