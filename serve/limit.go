package serve

import (
	"net"
	"sync"
	"time"
)

// loginLimiter counts failed logins per client address: after maxFails in
// a window, that address's connections are closed unanswered until the
// window has passed since its latest failure. Keys are the only way in,
// so this slows a scan of stolen keys and keeps a flood of handshakes from
// costing the server its CPU.
type loginLimiter struct {
	maxFails int
	window   time.Duration
	now      func() time.Time

	mu    sync.Mutex
	fails map[string][]time.Time // by host, the failures within the window
}

func newLoginLimiter(maxFails int, window time.Duration) *loginLimiter {
	return &loginLimiter{maxFails: maxFails, window: window, now: time.Now, fails: map[string][]time.Time{}}
}

// hostOf is the address without its port: a client gets a new port per
// connection.
func hostOf(addr net.Addr) string {
	if addr == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}

// recent drops the failures older than the window; called with mu held.
func (l *loginLimiter) recent(host string) []time.Time {
	cut := l.now().Add(-l.window)
	f := l.fails[host]
	i := 0
	for i < len(f) && f[i].Before(cut) {
		i++
	}
	f = f[i:]
	if len(f) == 0 {
		delete(l.fails, host)
		return nil
	}
	l.fails[host] = f
	return f
}

// allowed reports whether host may try to log in now.
func (l *loginLimiter) allowed(host string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recent(host)) < l.maxFails
}

// failed records a failed login from host.
func (l *loginLimiter) failed(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.recent(host)
	if len(f) >= l.maxFails {
		f = f[1:] // bounded: the oldest goes, the window moves on
	}
	l.fails[host] = append(f, l.now())
	if len(l.fails) > maxTrackedHosts {
		l.forgetOldest()
	}
}

// maxTrackedHosts bounds the limiter's memory under a flood from many
// addresses.
const maxTrackedHosts = 4096

// forgetOldest drops the host whose latest failure is the oldest; called
// with mu held.
func (l *loginLimiter) forgetOldest() {
	var oldest string
	var at time.Time
	for h, f := range l.fails {
		if last := f[len(f)-1]; oldest == "" || last.Before(at) {
			oldest, at = h, last
		}
	}
	delete(l.fails, oldest)
}
