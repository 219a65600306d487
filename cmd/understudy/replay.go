package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/tool"
	"github.com/understudy-dev/understudy/internal/trace"
)

const replayUsage = `understudy replay — run a replay spec (trace_promote) or a trace against the app, headless.

  understudy replay SPEC [--json] [--confirm] [MCP flags]

SPEC is a spec file trace_promote wrote (or a trace folder). A server with the MCP flags
(--allow-eval, --app-root, --operation-timeout-ms, ...; every capability group offered) runs it
as trace_replay does: its launch step starts the app, refs are found again by role and name,
result checks are applied; what it launched is stopped at the end. The whole replay is one call,
bounded by --operation-timeout-ms (default 120000): raise it for a long spec. Exit codes:
  0   every step matched
  1   a step differed (its checkpoint or a result check)
  2   the spec is malformed or missing (TRACE_INVALID, TRACE_NOT_FOUND)
  3   the app did not launch (the spec's electron_launch or electron_attach step failed)
  4   anything else (the server, the browser)
  64  bad usage (no SPEC, a bad flag; a spec that needs --confirm or --allow-eval)
--json prints one JSON object (format understudy-replay-report) on stdout; diagnostics go to
stderr. --confirm lets a spec with destructive steps run (stop, kill, eval, files).
`

// Exit codes of understudy replay.
const (
	replayPassed    = 0
	replayDiffered  = 1
	replayBadSpec   = 2
	replayNoLaunch  = 3
	replayInfra     = 4
	replayBadUsage  = 64
	replayReportFmt = "understudy-replay-report"
)

// replayReport is what --json prints.
type replayReport struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Spec     string          `json:"spec"`
	ExitCode int             `json:"exit_code"`
	Passed   bool            `json:"passed"`
	Replay   json.RawMessage `json:"replay"` // trace_replay's envelope
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprint(stdout, replayUsage)
		return 0
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, "understudy replay: name the spec first\n\n"+replayUsage)
		return replayBadUsage
	}
	spec, jsonOut, confirm := args[0], false, false
	var mcpArgs []string
	for _, a := range args[1:] {
		switch a {
		case "--json", "-json":
			jsonOut = true
		case "--confirm", "-confirm":
			confirm = true
		case "-h", "--help", "-help":
			fmt.Fprint(stdout, replayUsage)
			return 0
		default:
			mcpArgs = append(mcpArgs, a)
		}
	}
	f, _, ok := parseMCPFlags(mcpArgs, stderr, stderr, os.Getenv)
	if !ok {
		return replayBadUsage
	}
	abs, err := filepath.Abs(spec)
	if err != nil {
		fmt.Fprintln(stderr, "understudy replay:", err)
		return replayBadUsage
	}
	cfg := f.toolConfig(newLogger(f.logLevel, stderr))
	// The operator named the spec: its folder is readable; every group is
	// offered, since a spec may hold a11y, visual or network steps (eval
	// steps still need --allow-eval).
	cfg.FileRoots = append(cfg.FileRoots, filepath.Dir(abs))
	cfg.With = append(cfg.With, "all")
	srv := tool.New(cfg)
	defer srv.Close() // stops what the replay launched

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	raw, _ := json.Marshal(map[string]any{"path": abs, "confirm": confirm})
	res := srv.Dispatch(ctx, "trace_replay", raw, nil)
	var env struct { // the answer: trace_replay's result, or a failure's message
		trace.ReplayResult
		Error string `json:"error"`
	}
	_ = json.Unmarshal(res.JSON, &env)
	exit := replayExit(!res.IsError, res.Code, env.Passed)
	if fd := env.FirstDifference; exit == replayDiffered && fd != nil && fd.Recorded.OK && fd.Replayed != nil && !fd.Replayed.OK &&
		(fd.Tool == "electron_launch" || fd.Tool == "electron_attach") {
		exit = replayNoLaunch
	}
	if jsonOut {
		b, _ := json.Marshal(replayReport{Format: replayReportFmt, Version: 1, Spec: abs, ExitCode: exit, Passed: exit == replayPassed, Replay: res.JSON})
		fmt.Fprintln(stdout, string(b))
		return exit
	}
	switch {
	case res.IsError: // a failure is a diagnostic: stderr
		fmt.Fprintf(stderr, "understudy replay %s: %s: %s\n", abs, res.Code, env.Error)
	case env.Passed:
		fmt.Fprintf(stdout, "understudy replay %s: passed (%d steps)\n", abs, env.Replayed)
	default:
		fmt.Fprintf(stdout, "understudy replay %s: %d of %d steps matched\n", abs, env.Matched, env.Replayed)
		if fd := env.FirstDifference; fd != nil {
			why := fd.Why
			if why == "" && fd.Replayed != nil {
				why = strings.TrimSpace(fd.Replayed.Code + " " + fd.Replayed.Error)
			}
			fmt.Fprintf(stdout, "first difference: step %d %s: %s\n", fd.Seq, fd.Tool, why)
		}
	}
	return exit
}

// replayExit maps trace_replay's answer to an exit code (a failed launch
// is told apart by the caller, from the first difference).
func replayExit(ok bool, code errs.Code, passed bool) int {
	switch {
	case ok && passed:
		return replayPassed
	case ok:
		return replayDiffered
	}
	switch code {
	case errs.TraceInvalid, errs.TraceNotFound:
		return replayBadSpec
	case errs.ConfirmRequired, errs.ReplayNotAllowed, errs.BadArgument, errs.PathNotAllowed:
		return replayBadUsage
	}
	return replayInfra
}
