//go:build linux

package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestAppRootEnvAllowlist: with an app root, a launch's env may set only
// allowlisted names (issue 27, point 11); without one, only the
// always-refused keys are refused.
func TestAppRootEnvAllowlist(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	app := writeScript(t, root, "app", "#!/bin/sh\nexit 0\n")
	refused := map[string]string{
		"PATH": dir + ":/usr/bin", "path": dir, "LD_PRELOAD": "/x.so", "LD_LIBRARY_PATH": dir, "DYLD_INSERT_LIBRARIES": "/x",
		"NODE_OPTIONS": "--require /x.js", "ELECTRON_RUN_AS_NODE": "1", "NODE_PATH": dir, "GCONV_PATH": dir,
		"LOCPATH": dir, "GTK_PATH": dir, "GTK_MODULES": "x", "XDG_DATA_DIRS": dir, "XDG_CONFIG_HOME": dir, "HOME": dir,
		"BASH_ENV": "/x.sh", "ENV": "/x.sh", "SHELLOPTS": "xtrace", "PS4": "$(touch /tmp/x)", "IFS": "/",
		"CHROMIUM_FLAGS": "--renderer-cmd-prefix=/x", "CHROME_WRAPPER": "/x", "ELECTRON_OVERRIDE_DIST_PATH": dir,
		"LANG": "../../" + dir, "LC_ALL": dir + "/C.UTF-8", "MYAPP_API": "https://example.com",
	}
	for k, v := range refused {
		_, err := plan(LaunchOptions{ExecutablePath: app, AppRoot: root, Env: map[string]string{k: v}})
		e := wantCode(t, err, errs.BadArgument, "env."+k)
		if !strings.Contains(e.Message, k) {
			t.Errorf("env %s: %v does not name the variable", k, e)
		}
	}
	allowed := map[string]string{
		"LANG": "de_DE.UTF-8", "LC_ALL": "C", "TZ": "Europe/Berlin", "DISPLAY": ":99", "NO_COLOR": "1",
		"ELECTRON_ENABLE_LOGGING": "1", "NODE_ENV": "test", "HTTPS_PROXY": "http://127.0.0.1:3128", "https_proxy": "x",
	}
	pl, err := plan(LaunchOptions{ExecutablePath: app, AppRoot: root, Env: allowed})
	if err != nil {
		t.Fatalf("allowlisted env refused: %v", err)
	}
	for k, v := range allowed {
		found := false
		for _, kv := range pl.env {
			found = found || kv == k+"="+v
		}
		if !found {
			t.Errorf("%s=%s is not in the child's environment", k, v)
		}
	}
	// The operator's --allow-env adds names, never the always-refused ones.
	if _, err := plan(LaunchOptions{ExecutablePath: app, AppRoot: root, AllowEnv: []string{"MYAPP_API"}, Env: map[string]string{"MYAPP_API": "x"}}); err != nil {
		t.Errorf("--allow-env MYAPP_API: %v", err)
	}
	_, err = plan(LaunchOptions{ExecutablePath: app, AppRoot: root, AllowEnv: []string{"LD_PRELOAD"}, Env: map[string]string{"LD_PRELOAD": "/x.so"}})
	wantCode(t, err, errs.BadArgument, "env.LD_PRELOAD")
	// Without an app root, PATH and app variables pass as before.
	if _, err := plan(LaunchOptions{ExecutablePath: app, Env: map[string]string{"PATH": dir, "MYAPP_API": "x"}}); err != nil {
		t.Errorf("without an app root: %v", err)
	}
}
