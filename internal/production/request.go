package production

import (
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Request is a validation as callers give it: production_validate's
// arguments (their JSON names and descriptions are the tool's).
type Request struct {
	AppPath string   `json:"appPath" jsonschema:"absolute path of the artifact: an unpacked app folder (resources/app.asar), a .app bundle, an AppImage, an Electron executable or an .asar archive"`
	Checks  []string `json:"checks,omitempty" jsonschema:"a subset of checks to run (fuses, asar, asar-integrity, versions, web-preferences, appimage); default: the artifact's defaults"`
}

// Check answers BAD_ARGUMENT for a missing appPath or a check Checks does
// not list.
func (r *Request) Check() error {
	if r.AppPath == "" {
		return errs.BadArg("appPath", "is required: the absolute path of the packaged app")
	}
	known := map[string]bool{}
	for _, id := range allChecks {
		known[id] = true
	}
	for i, id := range r.Checks {
		if !known[id] {
			return errs.BadArg("checks["+strconv.Itoa(i)+"]", "unknown check %q", id)
		}
	}
	return nil
}
