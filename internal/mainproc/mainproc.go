package mainproc

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/agentjs"
	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Connect opens the inspector socket. inspector is the ws:// URL printed in
// "Debugger listening on", or the inspector's http://HOST:PORT, whose
// /json/list names the socket. Only loopback hosts are accepted.
func Connect(ctx context.Context, inspector string) (*cdp.Conn, error) {
	if inspector == "" {
		return nil, errs.New(errs.TransportUnsupported, "no main-process inspector is known for this session")
	}
	u, err := url.Parse(inspector)
	if err != nil || !browser.IsLoopbackHost(u.Hostname()) {
		return nil, errs.BadArg("inspectorUrl", "%q is not a loopback inspector URL", inspector)
	}
	ws := inspector
	if u.Scheme == "http" {
		if ws, err = socketOf(ctx, u); err != nil {
			return nil, err
		}
	}
	c, err := cdp.Dial(ctx, ws, nil)
	if err != nil {
		return nil, errs.Wrap(errs.TransportUnsupported, err, "the main-process inspector did not answer")
	}
	return c, nil
}

func socketOf(ctx context.Context, u *url.URL) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", u.Scheme+"://"+u.Host+"/json/list", nil)
	if err != nil {
		return "", errs.BadArg("inspectorUrl", "%v", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", errs.Wrap(errs.TransportUnsupported, err, "the main-process inspector did not answer")
	}
	defer resp.Body.Close()
	var list []struct {
		Type string `json:"type"`
		WS   string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return "", errs.Wrap(errs.TransportUnsupported, err, "reading the inspector's /json/list")
	}
	for _, t := range list {
		if t.Type == "node" && t.WS != "" {
			return t.WS, nil
		}
	}
	return "", errs.New(errs.TransportUnsupported, "%s lists no Node target", u.Host)
}

// Eval runs code in the main process: an expression, a function body with
// return, or a function called with arg. require is available (the
// inspector's command-line API). It returns the JSON result.
func Eval(ctx context.Context, c *cdp.Conn, code string, arg json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	return agentjs.Run(ctx, agentjs.Target{Session: c, CommandLineAPI: true}, code, arg, timeout)
}

// DefaultInspectorPort is where Node opens its inspector on SIGUSR1.
const DefaultInspectorPort = 9229

// Inject asks a running Node or Electron main process to open its inspector
// (SIGUSR1, as `node --inspect` would) and waits for it on
// 127.0.0.1:DefaultInspectorPort. It returns the inspector's socket URL.
// An app whose EnableNodeCliInspectArguments fuse is off ignores the
// signal: that is INJECT_FAILED after the timeout.
func Inject(ctx context.Context, pid int, timeout time.Duration) (string, error) {
	if pid <= 0 {
		return "", errs.BadArg("pid", "must be a process id")
	}
	if err := browser.OpenInspector(pid); err != nil {
		return "", err
	}
	u := &url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(DefaultInspectorPort)}
	deadline := time.Now().Add(timeout)
	for {
		ws, err := socketOf(ctx, u)
		if err == nil {
			return ws, nil
		}
		if time.Now().After(deadline) {
			return "", errs.New(errs.InjectFailed, "pid %d opened no inspector on %s within %s (the app's fuses may forbid it)", pid, u.Host, timeout)
		}
		select {
		case <-ctx.Done():
			return "", errs.FromContext(ctx, errs.OperationTimeout, fmt.Sprintf("waiting for the inspector of pid %d", pid))
		case <-time.After(20 * time.Millisecond):
		}
	}
}
