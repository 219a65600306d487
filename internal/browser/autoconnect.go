package browser

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ActivePort is what one user-data directory's DevToolsActivePort says,
// or why it says nothing usable.
type ActivePort struct {
	Dir  string `json:"dir"`
	Port int    `json:"port,omitempty"`
	// WSURL is the browser socket the file names (on 127.0.0.1).
	WSURL string `json:"ws_url,omitempty"`
	// Why is empty when the file named a port and a browser path.
	Why string `json:"why,omitempty"`
}

// DefaultUserDataDirs are the user-data directories of Chrome and
// Chromium on this OS, the stable channel first.
func DefaultUserDataDirs() []string {
	home, _ := os.UserHomeDir()
	switch runtime.GOOS {
	case "darwin":
		base := filepath.Join(home, "Library", "Application Support")
		return []string{filepath.Join(base, "Google", "Chrome"), filepath.Join(base, "Google", "Chrome Beta"),
			filepath.Join(base, "Google", "Chrome Dev"), filepath.Join(base, "Google", "Chrome Canary"), filepath.Join(base, "Chromium")}
	case "windows":
		base := os.Getenv("LOCALAPPDATA")
		return []string{filepath.Join(base, "Google", "Chrome", "User Data"), filepath.Join(base, "Google", "Chrome Beta", "User Data"),
			filepath.Join(base, "Google", "Chrome Dev", "User Data"), filepath.Join(base, "Google", "Chrome SxS", "User Data"),
			filepath.Join(base, "Chromium", "User Data")}
	}
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		cfg = filepath.Join(home, ".config")
	}
	return []string{filepath.Join(cfg, "google-chrome"), filepath.Join(cfg, "google-chrome-beta"),
		filepath.Join(cfg, "google-chrome-unstable"), filepath.Join(cfg, "chromium")}
}

// ReadActivePorts reads DevToolsActivePort in each directory (the file a
// browser with remote debugging on writes: its port, then its browser
// socket's path), the way chrome-devtools-mcp's --autoConnect does. Every
// directory gets an entry: what it names, or why not.
func ReadActivePorts(dirs []string) []ActivePort {
	out := make([]ActivePort, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, activePortOf(d))
	}
	return out
}

func activePortOf(dir string) ActivePort {
	ap := ActivePort{Dir: dir}
	if _, err := os.Stat(dir); err != nil {
		ap.Why = "no such user-data directory"
		return ap
	}
	file := filepath.Join(dir, "DevToolsActivePort")
	if _, err := os.Stat(file); err != nil {
		ap.Why = "no DevToolsActivePort: remote debugging is off (or the browser is not running)"
		return ap
	}
	ws, ok := readActivePort(file)
	if !ok {
		ap.Why = "DevToolsActivePort does not name a port and a browser socket path"
		return ap
	}
	ap.WSURL = ws
	if u, err := url.Parse(ws); err == nil {
		ap.Port, _ = strconv.Atoi(u.Port())
	}
	return ap
}

// Listening reports whether something accepts connections on the
// loopback port (a stale DevToolsActivePort outlives its browser).
func Listening(ctx context.Context, port int) bool {
	d := net.Dialer{Timeout: 2 * time.Second, Control: loopbackOnly}
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// RemoteVersion reads /json/version of an HTTP(S) DevTools endpoint off
// loopback, that the caller has checked against the operator's allowlist,
// with the operator's headers. TLS is verified; redirects are not
// followed. Errors never carry the headers.
func RemoteVersion(ctx context.Context, httpURL string, header http.Header) (Version, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultHTTPTimeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(httpURL, "/")+"/json/version", nil)
	if err != nil {
		return Version{}, errs.BadArg("cdpUrl", "bad endpoint URL %q", httpURL)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	client := &http.Client{
		Transport:     &http.Transport{Proxy: http.ProxyFromEnvironment, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return Version{}, errs.Wrap(errs.CDPTimeout, err, "the DevTools endpoint at "+httpURL+" did not answer in time").With("endpoint", httpURL)
		}
		return Version{}, errs.Wrap(errs.NotRunning, err, "no DevTools endpoint at "+httpURL).With("endpoint", httpURL)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody))
	var v Version
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &v) != nil || v.WebSocketDebuggerURL == "" {
		return Version{}, errs.New(errs.NotRunning, "no DevTools endpoint at %s: GET /json/version answered HTTP %d without a browser socket; pass the ws:// or wss:// browser URL instead",
			httpURL, resp.StatusCode).With("endpoint", httpURL)
	}
	return v, nil
}
