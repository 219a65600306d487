package browser

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// DefaultLaunchTimeout is how long Launch waits for the endpoints when
// LaunchOptions.Timeout is zero.
const DefaultLaunchTimeout = 30 * time.Second

// Progress stages reported through LaunchOptions.Progress.
const (
	StageSpawned           = "spawned"
	StageDevtoolsEndpoint  = "devtools-endpoint"
	StageInspectorEndpoint = "inspector-endpoint"
)

// ownedSwitches are the switches Launch sets; callers may not pass them.
func ownedSwitches() []string {
	return []string{"remote-debugging-port", "remote-debugging-pipe", "remote-debugging-address", "remote-allow-origins"}
}

// chromiumDefaults are the switches every Chromium launch gets, after the
// debugging switches and before the user-data-dir, headless and caller
// ones. The network-quiet ones stop Chromium flooding a closed network.
func chromiumDefaults() []string {
	return []string{
		"--window-size=1280,900",
		"--disable-gpu",
		"--disable-quic",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
	}
}

// LaunchOptions configures Launch. The zero value of each optional field
// means its documented default. Field names in errors are the tool
// parameters an agent passes (executablePath or electronPath, args,
// env.KEY, cwd, main, appRoot).
type LaunchOptions struct {
	// ExecutablePath is the absolute path of the program to run: a
	// Chromium-family browser (see IsChromium), an Electron app, or, with
	// MainScript, the Electron binary. Required. Missing: FILE_NOT_FOUND;
	// relative: ABSOLUTE_PATH_REQUIRED; a directory or not executable:
	// BAD_ARGUMENT.
	ExecutablePath string

	// Args are the caller's arguments, passed after ours. The debugging
	// switches are ours: --remote-debugging-port, --remote-debugging-pipe,
	// --remote-debugging-address and --remote-allow-origins are refused
	// (BAD_ARGUMENT naming "args"), and so are the switches that name a
	// program or library to run or open a debugger to the network
	// (--renderer-cmd-prefix, --browser-subprocess-path, --gpu-launcher,
	// --load-extension, --inspect, ...: refusedSwitch). With AppRoot only
	// the switches of rootSwitches pass, and positional paths must lie
	// inside the root. For Chromium, a --user-data-dir here replaces the
	// temp profile (and is then not removed).
	Args []string

	// Env is added to the child's environment, which is ours minus
	// NODE_OPTIONS, ELECTRON_RUN_AS_NODE, LD_* and DYLD_*. Those keys are
	// refused here (BAD_ARGUMENT naming "env.KEY"). With AppRoot only the
	// names of rootEnv (and AllowEnv) may be set.
	Env map[string]string

	// Cwd is the child's working directory, absolute. Default: AppRoot
	// when set, else ours.
	Cwd string

	// AppRoot, when set, confines the launch: ExecutablePath, Cwd,
	// MainScript and path arguments must resolve (symlinks followed) inside
	// it, and Args may hold only allowlisted switches, or the launch is
	// BAD_ARGUMENT naming the field.
	AppRoot string

	// AllowEnv names environment variables Env may set beyond rootEnv when
	// AppRoot confines the launch (the operator's --allow-env). The
	// always-refused keys stay refused.
	AllowEnv []string

	// MainScript makes a dev launch: ExecutablePath is an Electron binary,
	// run as Electron is run: `ELECTRON --inspect=0
	// --remote-debugging-port=0 --remote-debugging-address=127.0.0.1 MAIN
	// args...`. A relative MainScript is taken relative to Cwd. Implies
	// Inspect.
	MainScript string

	// RunMain, with MainScript, is the script actually run in its place:
	// launch-time instrumentation's shim, which installs fixed hooks and
	// then loads MainScript (docs/electron.md). MainScript is still what is
	// checked (it must exist, and lie inside AppRoot).
	RunMain string

	// Inspect also passes --inspect=0 and waits for the Node inspector's
	// "Debugger listening on ws://..." line (Electron apps only).
	Inspect bool

	// Headless runs Chromium headless; nil means true. Ignored for Electron.
	Headless *bool

	// Timeout bounds the wait for the endpoints. Default
	// DefaultLaunchTimeout. Past it: LAUNCH_TIMEOUT (retryable) with the
	// output tail in details.
	Timeout time.Duration

	// Progress, when set, is called from Launch's goroutine with
	// StageSpawned, StageDevtoolsEndpoint and StageInspectorEndpoint.
	Progress func(stage string)

	// Stderr, when set, receives a copy of the child's stdout and stderr
	// (merged, as read, from one goroutine). It should not block: the
	// child stalls while it does. A write error stops the copy, not the
	// drain. Never pass our stdout: it carries MCP messages.
	Stderr io.Writer
}

// launchPlan is a validated launch, before any side effect.
type launchPlan struct {
	exe        string
	exeField   string
	main       string // absolute; "" when not a dev launch
	runMain    string // what runs in main's place (instrumentation shim); "" for main itself
	args       []string
	env        []string
	cwd        string
	chromium   bool
	headless   bool
	inspect    bool
	ownProfile bool   // we create and remove the user-data-dir
	profile    string // a caller's --user-data-dir, when given
	timeout    time.Duration
}

// Launch starts an app and waits until its DevTools endpoint is known (and,
// for a dev launch or Inspect, its Node inspector URL). The child runs in
// its own process group; on Linux it is SIGKILLed if our process dies.
//
// For Chromium the command line is: the debugging switches
// (--remote-debugging-port=0 --remote-debugging-address=127.0.0.1), the
// defaults (window size 1280×900, no GPU, no QUIC, no first run, no
// background networking, component updates or sync), a fresh temp
// --user-data-dir, --headless unless Headless is false, --no-sandbox when
// we run as root, the caller's Args, and about:blank if Args hold no URL.
// An Electron app gets only the debugging switches and Args.
//
// The endpoint is learned from the "DevTools listening on" line and, in
// parallel for a profile we own, from <user-data-dir>/DevToolsActivePort,
// whichever comes first. If the child exits first: LAUNCH_FAILED with its
// exit status and output tail. Past the timeout: LAUNCH_TIMEOUT. If ctx
// ends: the error wraps ctx.Err(). In each failure the whole group is
// killed and the temp profile removed before Launch returns. ctx does not
// bound the process after Launch returns: Stop or Kill it.
func Launch(ctx context.Context, opts LaunchOptions) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxLaunchErr(err, "launch")
	}
	pl, err := plan(opts)
	if err != nil {
		return nil, err
	}

	userDataDir := pl.profile
	if pl.ownProfile {
		userDataDir, err = os.MkdirTemp("", "understudy-chromium-")
		if err != nil {
			return nil, errs.Wrap(errs.LaunchFailed, err, "creating a temp user-data-dir")
		}
	}
	argv := pl.argv(userDataDir)

	r, w, err := os.Pipe()
	if err != nil {
		removeOwned(pl.ownProfile, userDataDir)
		return nil, errs.Wrap(errs.LaunchFailed, err, "creating the output pipe")
	}
	cmd := &exec.Cmd{
		Path:        pl.exe,
		Args:        argv,
		Env:         pl.env,
		Dir:         pl.cwd,
		Stdout:      w, // never our stdout: it carries MCP messages
		Stderr:      w,
		SysProcAttr: sysProcAttr(),
	}
	p := &Process{
		IsChromium:      pl.chromium,
		UserDataDir:     userDataDir,
		OwnsUserDataDir: pl.ownProfile,
		Argv:            argv,
		cmd:             cmd,
		out:             newOutputReader(r, opts.Stderr),
		outR:            r,
		outDone:         make(chan struct{}),
		exited:          make(chan struct{}),
		done:            make(chan struct{}),
	}
	started := make(chan error, 1)
	go p.run(started)
	if err := <-started; err != nil {
		r.Close()
		w.Close()
		removeOwned(pl.ownProfile, userDataDir)
		return nil, errs.Wrap(errs.LaunchFailed, err, "starting "+pl.exe).With("executable", pl.exe)
	}
	w.Close() // the child holds the write end now; EOF comes when all its holders exit
	p.PID = cmd.Process.Pid
	go func() {
		defer close(p.outDone)
		p.out.run()
	}()
	progress(opts.Progress, StageSpawned)

	if err := p.awaitEndpoints(ctx, pl, opts.Progress); err != nil {
		_ = p.Kill()
		return nil, err
	}
	return p, nil
}

// awaitEndpoints waits for the DevTools endpoint (and the inspector URL
// when asked for) and fills them in.
func (p *Process) awaitEndpoints(ctx context.Context, pl launchPlan, report func(string)) error {
	var fileCh chan string
	pollCtx, stopPoll := context.WithCancel(ctx)
	var pollers sync.WaitGroup
	defer func() {
		stopPoll()
		pollers.Wait()
	}()
	if pl.ownProfile {
		fileCh = make(chan string, 1)
		pollers.Go(func() { pollActivePort(pollCtx, p.UserDataDir, fileCh) })
	}

	timer := time.NewTimer(pl.timeout)
	defer timer.Stop()

	haveDevtools, haveInspector := false, !pl.inspect
	setDevtools := func(u string) {
		if haveDevtools {
			return
		}
		if ep, err := endpointFromWS(u); err == nil {
			p.Endpoint = ep
			haveDevtools = true
			progress(report, StageDevtoolsEndpoint)
		}
	}
	for !haveDevtools || !haveInspector {
		select {
		case u := <-p.out.devtools:
			setDevtools(u)
		case u := <-fileCh:
			setDevtools(u)
		case u := <-p.out.inspector:
			if !haveInspector {
				p.InspectorURL = u
				haveInspector = true
				progress(report, StageInspectorEndpoint)
			}
		case <-p.exited:
			return p.exitedEarly(pl)
		case <-ctx.Done():
			_ = p.Kill()
			return ctxLaunchErr(ctx.Err(), "launch of "+pl.exe).With("stderr_tail", p.out.tail.String())
		case <-timer.C:
			_ = p.Kill() // the output tail is complete once the group is gone
			var waiting, what []string
			if !haveDevtools {
				waiting = append(waiting, StageDevtoolsEndpoint)
				what = append(what, "DevTools endpoint")
			}
			if !haveInspector {
				waiting = append(waiting, StageInspectorEndpoint)
				what = append(what, "Node inspector")
			}
			return errs.New(errs.LaunchTimeout, "%s opened no %s within %v",
				filepath.Base(pl.exe), strings.Join(what, " and no "), pl.timeout).
				With("executable", pl.exe).
				With("timeout_ms", pl.timeout.Milliseconds()).
				With("waiting_for", waiting).
				With("stderr_tail", p.out.tail.String())
		}
	}
	return nil
}

// exitedEarly builds the error for a child that exited before its
// endpoints were known.
func (p *Process) exitedEarly(pl launchPlan) error {
	_ = p.Kill() // waits for the cleanup: reaped, output drained
	status := "status unknown"
	code := -1
	var ee *exec.ExitError
	if err := p.ExitErr(); errors.As(err, &ee) {
		status = ee.ProcessState.String()
		code = ee.ProcessState.ExitCode()
	} else if err == nil {
		status, code = "exit status 0", 0
	}
	tailText := p.out.tail.String()
	c := errs.LaunchFailed
	msg := fmt.Sprintf("%s exited (%s) before opening a DevTools endpoint", filepath.Base(pl.exe), status)
	if pl.chromium && strings.Contains(tailText, "Opening in existing browser session") {
		c = errs.SingleInstanceLock
		msg = fmt.Sprintf("%s handed the launch to a running instance that uses the same --user-data-dir", filepath.Base(pl.exe))
	}
	return errs.New(c, "%s", msg).
		With("executable", pl.exe).
		With("exit", status).
		With("exit_code", code).
		With("stderr_tail", tailText)
}

func progress(f func(string), stage string) {
	if f != nil {
		f(stage)
	}
}

func ctxLaunchErr(err error, what string) *errs.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return errs.Wrap(errs.LaunchTimeout, err, what+" ran out of time")
	}
	return errs.Wrap(errs.LaunchFailed, err, what+" canceled")
}

func removeOwned(owned bool, dir string) {
	if owned && dir != "" {
		_ = os.RemoveAll(dir)
	}
}

// pollActivePort polls dir/DevToolsActivePort until it names an endpoint
// or ctx ends, and sends the browser WebSocket URL on ch (buffered).
func pollActivePort(ctx context.Context, dir string, ch chan<- string) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		if u, ok := readActivePort(filepath.Join(dir, "DevToolsActivePort")); ok {
			ch <- u
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// loopbackWS reports whether a listening URL a launched app printed is one
// understudy may dial: ws:// on a loopback host (or the unspecified
// address, which endpointFromWS dials as 127.0.0.1). Anything else — wss,
// another host — is not the debugging port we asked for on 127.0.0.1, and
// dialing it would hand a handshake to whoever printed the line.
func loopbackWS(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "ws" || u.User != nil {
		return false
	}
	h := u.Hostname()
	if ip, err := netip.ParseAddr(h); err == nil && ip.IsUnspecified() {
		return true
	}
	return IsLoopbackHost(h)
}

// readActivePort parses a DevToolsActivePort file: line 1 the port, line 2
// the browser path. A partly written file does not parse.
func readActivePort(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 4096))
	var lines []string
	for sc.Scan() && len(lines) < 2 {
		lines = append(lines, strings.TrimSpace(sc.Text()))
	}
	if len(lines) < 2 {
		return "", false
	}
	port, err := strconv.Atoi(lines[0])
	if err != nil || port <= 0 || port > 65535 || !strings.HasPrefix(lines[1], "/devtools/browser/") ||
		len(lines[1]) <= len("/devtools/browser/") {
		return "", false
	}
	return "ws://127.0.0.1:" + strconv.Itoa(port) + lines[1], true
}

// plan validates opts and computes what to run, without side effects.
func plan(opts LaunchOptions) (launchPlan, error) {
	pl := launchPlan{exeField: "executablePath", timeout: opts.Timeout}
	if opts.MainScript != "" {
		pl.exeField = "electronPath"
	}
	if pl.timeout <= 0 {
		pl.timeout = DefaultLaunchTimeout
	}

	// The executable.
	exe := opts.ExecutablePath
	if exe == "" {
		return pl, errs.BadArg(pl.exeField, "required: the absolute path of the app or browser to run")
	}
	if err := checkFile(pl.exeField, exe, false); err != nil {
		return pl, err
	}
	pl.exe = filepath.Clean(exe)
	pl.chromium = IsChromium(pl.exe)

	// The app root.
	var root string
	if opts.AppRoot != "" {
		if err := checkFile("appRoot", opts.AppRoot, true); err != nil {
			return pl, err
		}
		r, err := filepath.EvalSymlinks(opts.AppRoot)
		if err != nil {
			return pl, errs.BadArg("appRoot", "cannot resolve %q: %v", opts.AppRoot, err)
		}
		root = r
		if err := checkInside(root, pl.exeField, pl.exe); err != nil {
			return pl, err
		}
	}

	// The working directory.
	pl.cwd = opts.Cwd
	if pl.cwd == "" && root != "" {
		pl.cwd = filepath.Clean(opts.AppRoot)
	}
	if pl.cwd != "" {
		if err := checkFile("cwd", pl.cwd, true); err != nil {
			return pl, err
		}
		pl.cwd = filepath.Clean(pl.cwd)
		if root != "" {
			if err := checkInside(root, "cwd", pl.cwd); err != nil {
				return pl, err
			}
		}
	}

	// The main script of a dev launch.
	if opts.MainScript != "" {
		if pl.chromium {
			return pl, errs.BadArg("electronPath", "%s is a Chromium browser; a dev launch (main) runs the Electron binary", pl.exe)
		}
		m := opts.MainScript
		if !filepath.IsAbs(m) {
			base := pl.cwd
			if base == "" {
				e := errs.New(errs.AbsolutePathRequired, "main: %q is relative and no cwd was given; pass an absolute path or cwd", m)
				return pl, e.With("field", "main")
			}
			m = filepath.Join(base, m)
		}
		if _, err := os.Stat(m); err != nil {
			return pl, fileErr("main", m, err)
		}
		pl.main = filepath.Clean(m)
		pl.runMain = opts.RunMain
		if root != "" {
			if err := checkInside(root, "main", pl.main); err != nil {
				return pl, err
			}
		}
		pl.inspect = true
	}
	if opts.Inspect {
		if pl.chromium {
			return pl, errs.BadArg("inspect", "%s is a Chromium browser: it has no Node inspector", pl.exe)
		}
		pl.inspect = true
	}

	// Arguments.
	for i, a := range opts.Args {
		if strings.ContainsRune(a, 0) {
			return pl, errs.BadArg("args", "args[%d] contains a NUL byte", i)
		}
		name := switchName(a)
		if slices.Contains(ownedSwitches(), name) {
			return pl, errs.BadArg("args", "args[%d] %q: the debugging switches are set by the launcher "+
				"(loopback, a free port); remove --%s", i, a, name)
		}
		if refusedSwitch(name) {
			return pl, errs.BadArg("args", "args[%d] %q: --%s is refused: it names a program or library to run, "+
				"or opens a debugger to the network", i, a, name).With("switch", name)
		}
		if root != "" {
			if err := checkArgInRoot(root, pl.cwd, i, a, name, os.Geteuid() == 0); err != nil {
				return pl, err
			}
		}
		if name == "user-data-dir" && pl.chromium {
			if _, v, ok := strings.Cut(a, "="); ok && v != "" {
				pl.profile = v
			}
		}
	}
	pl.args = slices.Clone(opts.Args)
	pl.ownProfile = pl.chromium && pl.profile == ""
	pl.headless = opts.Headless == nil || *opts.Headless

	// Environment.
	keys := make([]string, 0, len(opts.Env))
	for k := range opts.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		field := "env." + k
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return pl, errs.BadArg(field, "%q is not an environment variable name", k)
		}
		if strings.ContainsRune(opts.Env[k], 0) {
			return pl, errs.BadArg(field, "the value contains a NUL byte")
		}
		if refusedEnv(k) {
			return pl, errs.BadArg(field, "%s is refused: it can run code in the app or change what it loads "+
				"(NODE_OPTIONS, ELECTRON_RUN_AS_NODE, LD_*, DYLD_* are never passed)", k)
		}
		if opts.AppRoot != "" {
			if why := rootEnvRefused(k, opts.Env[k], opts.AllowEnv); why != "" {
				e := errs.BadArg(field, "%s is refused with an app root: %s", k, why)
				e.Hint = "with --app-root a launch's env may set only " + strings.Join(rootEnv(), ", ") +
					" (and names the operator allows with --allow-env); the rest of the app's environment is the server's own"
				return pl, e.With("variable", k)
			}
		}
	}
	env := make([]string, 0, len(os.Environ())+len(keys))
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if refusedEnv(k) {
			continue
		}
		if _, override := opts.Env[k]; override {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range keys {
		env = append(env, k+"="+opts.Env[k])
	}
	pl.env = env
	return pl, nil
}

// argv is the full command line; userDataDir is ours when ownProfile.
func (pl launchPlan) argv(userDataDir string) []string {
	argv := []string{pl.exe}
	if pl.inspect {
		argv = append(argv, "--inspect=0")
	}
	argv = append(argv, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1")
	if pl.main != "" {
		if pl.runMain != "" {
			return append(append(argv, pl.runMain), pl.args...)
		}
		return append(append(argv, pl.main), pl.args...)
	}
	if !pl.chromium {
		return append(argv, pl.args...)
	}
	argv = append(argv, chromiumDefaults()...)
	if pl.ownProfile {
		argv = append(argv, "--user-data-dir="+userDataDir)
	}
	if pl.headless {
		argv = append(argv, "--headless")
	}
	if os.Geteuid() == 0 {
		argv = append(argv, "--no-sandbox")
	}
	argv = append(argv, pl.args...)
	if !hasURL(pl.args) {
		argv = append(argv, "about:blank")
	}
	return argv
}

// switchName returns the name of a command-line switch ("--name=value" or
// "-name"), lower-cased, or "" for a non-switch.
func switchName(arg string) string {
	if !strings.HasPrefix(arg, "-") {
		return ""
	}
	n := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
	n, _, _ = strings.Cut(n, "=")
	return strings.ToLower(n)
}

// refusedSwitch reports the switches no launch may pass, app root or not:
// those that make Chromium or Electron run another program or load a
// library or extension (which would bypass --app-root and the env rules),
// and those that open a debugger to the network.
func refusedSwitch(name string) bool {
	switch name {
	case "renderer-cmd-prefix", "utility-cmd-prefix", "gpu-launcher", "ppapi-plugin-launcher",
		"plugin-launcher", "browser-subprocess-path", "zygote-cmd-prefix", "nacl-loader-cmd-prefix",
		"gpu-cmd-prefix", "nacl-gdb", "load-extension", "ppapi-flash-path", "register-pepper-plugins",
		"inspect", "inspect-brk", "inspect-port", "inspect-brk-node", "inspect-publish-uid",
		"debug", "debug-brk", "debug-port":
		return true
	}
	return false
}

// rootSwitches are the switches accepted when an app root confines the
// launch: they change how the app looks or behaves, never what runs.
// Everything else is refused (an allowlist: Chromium has hundreds of
// switches, new ones every release, and more than the ones in
// refusedSwitch name programs, libraries or files to load).
// --user-data-dir must name a folder inside the root.
func rootSwitches() []string {
	return []string{
		"headless", "window-size", "window-position", "start-maximized", "start-fullscreen", "kiosk",
		"lang", "accept-lang", "disable-gpu", "disable-gpu-compositing", "disable-software-rasterizer", "enable-features",
		"disable-features", "disable-blink-features", "user-agent", "force-device-scale-factor", "force-color-profile", "hide-scrollbars",
		"mute-audio", "disable-extensions", "incognito", "no-first-run", "no-default-browser-check", "disable-dev-shm-usage",
		"disable-background-timer-throttling", "disable-renderer-backgrounding", "disable-backgrounding-occluded-windows", "proxy-server", "no-proxy-server", "proxy-bypass-list",
		"host-resolver-rules", "autoplay-policy", "force-prefers-reduced-motion", "force-dark-mode", "v", "vmodule",
		"enable-logging", "user-data-dir",
	}
}

// checkArgInRoot applies the app root to one caller argument: a switch must
// be in rootSwitches (a path value inside the root), and a positional
// argument that names a file (a path, or a file: URL) must lie inside it.
// URLs of other schemes and plain words pass: they are the app's business.
// --no-sandbox names no program and is accepted when we run as root
// (asRoot), where Chromium and Electron refuse to start with their sandbox
// on and we add it to Chromium ourselves; as a normal user the sandbox
// works and the switch would only weaken it, so it stays refused.
func checkArgInRoot(root, cwd string, i int, a, name string, asRoot bool) error {
	if name != "" || a == "-" || a == "--" {
		if a == "--" || a == "-" {
			return errs.BadArg("args", "args[%d] %q: an end-of-switches marker is refused with an app root (what follows would not be checked)", i, a)
		}
		if name == "no-sandbox" {
			if asRoot {
				return nil
			}
			return errs.BadArg("args", "args[%d] %q: with an app root --no-sandbox is accepted only when understudy runs as root (where the sandbox cannot start); as a normal user keep the sandbox (docs/troubleshooting.md, Sandbox)", i, a).With("switch", name)
		}
		if !slices.Contains(rootSwitches(), name) {
			return errs.BadArg("args", "args[%d] %q: with an app root only these switches are accepted: %s",
				i, a, "--"+strings.Join(rootSwitches(), ", --")).With("switch", name)
		}
		if name == "user-data-dir" { // a path: inside the root
			_, v, _ := strings.Cut(a, "=")
			if v == "" || !insideRoot(root, cwd, v) {
				return errs.BadArg("args", "args[%d] %q: --%s must name a directory inside the app root %s", i, a, name, root).With("app_root", root)
			}
		}
		return nil
	}
	p := a
	if u, err := url.Parse(a); err == nil && len(u.Scheme) > 1 {
		if !strings.EqualFold(u.Scheme, "file") {
			return nil
		}
		p = u.Path
	}
	if !strings.ContainsAny(p, `/\`) && p != "." && p != ".." && !fileExists(cwd, p) {
		return nil // a word, not a path
	}
	if !insideRoot(root, cwd, p) {
		return errs.BadArg("args", "args[%d] %q is a path outside the app root %s", i, a, root).With("app_root", root)
	}
	return nil
}

func fileExists(cwd, p string) bool {
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return false
		}
		p = filepath.Join(cwd, p)
	}
	_, err := os.Lstat(p)
	return err == nil
}

// insideRoot reports whether p (relative to cwd, or to the working
// directory when cwd is empty) lies inside root, symlinks resolved as far
// as the path exists.
func insideRoot(root, cwd, p string) bool {
	if !filepath.IsAbs(p) {
		base := cwd
		if base == "" {
			wd, err := os.Getwd()
			if err != nil {
				return false
			}
			base = wd
		}
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	// Resolve the longest existing prefix; the rest cannot be a symlink.
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = filepath.Join(real, rest)
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// hasURL reports whether args hold a non-switch argument (a URL or path
// for Chromium to open).
func hasURL(args []string) bool {
	for _, a := range args {
		if a != "" && !strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// rootEnv are the environment names a launch may set when an app root
// confines it: locale, time zone, display, logging and proxy settings,
// which change how the app looks or talks, never what runs. Everything
// else is refused (an allowlist: PATH made Debian's chromium launcher run
// another grep; LD_*, DYLD_*, NODE_OPTIONS, ELECTRON_RUN_AS_NODE, GCONV_PATH,
// LOCPATH, XDG_*_DIRS, GTK_PATH, BASH_ENV, ... each load or run other
// code). Names compare without case.
func rootEnv() []string {
	return []string{
		"LANG", "LANGUAGE", "LC_ALL", "LC_ADDRESS", "LC_COLLATE", "LC_CTYPE", "LC_IDENTIFICATION", "LC_MEASUREMENT",
		"LC_MESSAGES", "LC_MONETARY", "LC_NAME", "LC_NUMERIC", "LC_PAPER", "LC_TELEPHONE", "LC_TIME", "TZ",
		"DISPLAY", "WAYLAND_DISPLAY", "NO_COLOR", "FORCE_COLOR", "CI", "NODE_ENV", "DEBUG",
		"ELECTRON_ENABLE_LOGGING", "ELECTRON_ENABLE_STACK_DUMPING", "ELECTRON_DISABLE_SECURITY_WARNINGS", "ELECTRON_NO_ATTACH_CONSOLE",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
	}
}

// rootEnvRefused says why an app-rooted launch may not set k=v, or "".
// extra are names the operator allows beyond rootEnv (--allow-env).
func rootEnvRefused(k, v string, extra []string) string {
	for _, a := range extra {
		if strings.EqualFold(a, k) {
			return ""
		}
	}
	if !slices.ContainsFunc(rootEnv(), func(a string) bool { return strings.EqualFold(a, k) }) {
		return "only allowlisted environment names may be set (this one can change what the app or its launcher runs or loads)"
	}
	u := strings.ToUpper(k)
	if (u == "LANG" || u == "LANGUAGE" || strings.HasPrefix(u, "LC_")) && strings.ContainsAny(v, "/\\") {
		return "a locale name with a path separator makes the C library load locale files from that path"
	}
	return ""
}

// refusedEnv reports whether an environment variable may not reach the
// child: it can make the app run other code or load other libraries.
func refusedEnv(k string) bool {
	u := strings.ToUpper(k)
	return u == "NODE_OPTIONS" || u == "ELECTRON_RUN_AS_NODE" ||
		strings.HasPrefix(u, "LD_") || strings.HasPrefix(u, "DYLD_")
}

// checkFile checks that path is absolute and exists, and is a directory
// (wantDir) or an executable regular file.
func checkFile(field, path string, wantDir bool) error {
	if !filepath.IsAbs(path) {
		return errs.New(errs.AbsolutePathRequired, "%s: %q is not an absolute path", field, path).With("field", field)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fileErr(field, path, err)
	}
	switch {
	case wantDir && !fi.IsDir():
		return errs.BadArg(field, "%s is not a directory", path)
	case !wantDir && fi.IsDir():
		return errs.BadArg(field, "%s is a directory; pass the executable inside it", path)
	case !wantDir && fi.Mode()&0o111 == 0:
		return errs.BadArg(field, "%s is not executable", path)
	}
	return nil
}

func fileErr(field, path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errs.New(errs.FileNotFound, "%s: %s does not exist", field, path).With("field", field).With("path", path)
	}
	return errs.BadArg(field, "cannot use %s: %v", path, err)
}

// checkInside checks that path, symlinks resolved, lies inside root
// (already resolved).
func checkInside(root, field, path string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return errs.BadArg(field, "cannot resolve %s: %v", path, err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return errs.BadArg(field, "%s is outside the app root %s", path, root).With("app_root", root)
	}
	return nil
}
