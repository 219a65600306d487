package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/production"
)

const productionUsage = `Usage:
  understudy production validate [--json] [--checks ID,ID] [--app] PATH

Checks a packaged Electron app on disk without running it: fuses, app.asar
(header, files, unpacked files, integrity hashes), versions, literal
webPreferences, and whether --inspect / SIGUSR1 / --remote-debugging-port would
be accepted. PATH: an unpacked app folder, a .app bundle, an AppImage, an
Electron executable or an .asar (a relative PATH is taken from the working
directory). Check ids: fuses, asar, asar-integrity, versions, web-preferences,
appimage.

--json writes exactly one JSON report to stdout (the production_validate
result without the MCP envelope); diagnostics go to stderr.
Exit: 0 no check failed, 1 at least one check failed, 2 bad input.
`

// isHelp is -h, -help or --help.
func isHelp(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// runProduction is `understudy production validate`.
func runProduction(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, productionUsage)
		return 0
	}
	if len(args) == 0 || args[0] != "validate" {
		if len(args) > 0 {
			fmt.Fprintf(stderr, "understudy production: unknown command %q\n\n", args[0])
		}
		fmt.Fprint(stderr, productionUsage)
		return 2
	}
	fs := flag.NewFlagSet("production validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	jsonOut := fs.Bool("json", false, "write the JSON report to stdout")
	app := fs.String("app", "", "the artifact to check")
	checks := fs.String("checks", "", "comma-separated check ids")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, productionUsage)
			return 0
		}
		fmt.Fprintf(stderr, "understudy production validate: %v (see --help)\n", plainFlagError(fs, err))
		return 2
	}
	rest := fs.Args()
	if *app == "" && len(rest) == 1 {
		*app, rest = rest[0], nil
	}
	fail := func(err error) int {
		e := errs.As(err)
		entry, _ := errs.Lookup(e.Code)
		fmt.Fprintf(stderr, "understudy production validate: %v\n%s\n", err, entry.Hint)
		if *jsonOut {
			b, _ := json.Marshal(map[string]any{"schema": production.ReportSchema, "schema_version": 1, "ok": false,
				"code": e.Code, "error": e.Message, "hint": entry.Hint, "details": e.Details})
			fmt.Fprintln(stdout, string(b))
		}
		return 2
	}
	if len(rest) > 0 {
		return fail(errs.BadArg("app", "one artifact path, got extra arguments %q", rest))
	}
	if *app == "" {
		fmt.Fprint(stderr, "understudy production validate: name the app to check\n\n"+productionUsage)
		return 2
	}
	path := *app
	if !filepath.IsAbs(path) {
		abs, err := filepath.Abs(path)
		if err != nil {
			return fail(errs.BadArg("app", "%v", err))
		}
		path = abs
	}
	var ids []string
	for _, id := range strings.Split(*checks, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r, err := production.Validate(ctx, path, production.Options{Checks: ids})
	if err != nil {
		return fail(err)
	}
	if *jsonOut {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fail(errs.Wrap(errs.Internal, err, "encoding the report"))
		}
		fmt.Fprintln(stdout, string(b))
	} else {
		fmt.Fprintf(stdout, "%s (%s)\n", r.AppPath, r.ArtifactType)
		for _, c := range r.Checks {
			fmt.Fprintf(stdout, "  %-8s %-16s %s\n", strings.ToUpper(c.Status), c.ID, c.Detail)
			if c.Evidence != "" {
				fmt.Fprintf(stdout, "           %-16s %s\n", "", c.Evidence)
			}
		}
		d := r.Debugging
		fmt.Fprintf(stdout, "  debugging: --inspect %s, SIGUSR1 %s, --remote-debugging-port %s, main outside app.asar %s\n",
			d.Inspect.Status, d.SIGUSR1.Status, d.RemoteDebugging.Status, d.ExternalMain.Status)
		fmt.Fprintf(stdout, "%d pass, %d fail, %d unknown\n", r.Summary.Pass, r.Summary.Fail, r.Summary.Unknown)
	}
	if !r.Passed {
		return 1
	}
	return 0
}
