package pprofaddr

import "testing"

func TestPprofAddressIsOffOrLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{
		"": true, "0": true, "127.0.0.1:6060": true, "localhost:6060": true, "[::1]:6060": true,
		":6060": false, "0.0.0.0:6060": false, "10.0.0.1:6060": false, "127.0.0.1": false,
	} {
		if _, err := Check(addr); (err == nil) != ok {
			t.Errorf("Check(%q): err %v, want ok=%v", addr, err, ok)
		}
	}
}
