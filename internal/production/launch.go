package production

import (
	"context"
	"os"
	"path/filepath"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Needs says what a launch or an inject asks of the Electron binary.
type Needs struct {
	Inspect      bool // the main-process inspector: --inspect on a dev launch, SIGUSR1 on inject
	ExternalMain bool // a main script outside app.asar (a dev launch with main)
}

// LaunchBlock reads the fuse wire of binary and returns a FUSES_BLOCK_LAUNCH
// error naming the fuse when the fuses forbid what needs asks for. It
// returns nil when nothing forbids it, and also when the binary cannot be
// judged (unreadable, no fuse wire): the launch then finds out itself.
func LaunchBlock(ctx context.Context, binary string, needs Needs) error {
	if binary == "" {
		return nil
	}
	if real, err := filepath.EvalSymlinks(binary); err == nil {
		binary = real
	}
	w, err := ReadFuses(ctx, binary)
	if err != nil || w == nil {
		return nil
	}
	art := &artifact{kind: ArtifactBinary, binary: binary}
	d := debugging(w, nil, art)
	block := func(fuse, state string, v Verdict) error {
		return errs.New(errs.FusesBlockLaunch, "%s", v.Reason).
			With("fuse", fuse).With("state", state).With("binary", binary).With("reason", v.Reason)
	}
	if needs.Inspect && d.Inspect.Status == "blocked" {
		v := d.Inspect
		if !needs.ExternalMain {
			v = d.SIGUSR1
		}
		return block("EnableNodeCliInspectArguments", "disabled", v)
	}
	if needs.ExternalMain && d.ExternalMain.Status == "blocked" {
		return block("OnlyLoadAppFromAsar", "enabled", d.ExternalMain)
	}
	return nil
}

// ProcessBinary returns the executable of a running process where the
// system tells it (Linux /proc), else "".
func ProcessBinary(pid int) string {
	if pid <= 0 {
		return ""
	}
	p, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return ""
	}
	return p
}
