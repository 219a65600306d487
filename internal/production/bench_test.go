package production_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/understudy-dev/understudy/internal/production"
	"github.com/understudy-dev/understudy/internal/production/oracle"
)

// BenchmarkValidate100MB: production_validate of an app whose app.asar
// (written by @electron/asar) holds 100 MB: 60 files of 1 MiB, 4 of 9 MiB
// (multi-block) and 2000 small files; every integrity hash is checked.
// Target (docs/benchmarks.md): ≤ 1 s, ≤ 50 MiB RSS (RSS is measured on the
// CLI with /usr/bin/time -v).
func BenchmarkValidate100MB(b *testing.B) {
	files := map[string]any{
		"package.json": `{"name":"big","main":"main.js"}`,
		"main.js":      "new BrowserWindow({webPreferences:{sandbox:true}})",
	}
	for i := range 60 {
		files[fmt.Sprintf("assets/m%02d.bin", i)] = map[string]any{"random": 1 << 20}
	}
	for i := range 4 {
		files[fmt.Sprintf("assets/big%d.bin", i)] = map[string]any{"random": 9 << 20}
	}
	for i := range 2000 {
		files[fmt.Sprintf("node_modules/p%d/index.js", i)] = map[string]any{"random": 1500}
	}
	app, _ := oracle.Build(b, oracle.Spec{Files: files, Fuses: map[string]bool{"RunAsNode": false}, BinarySize: 8 << 20})
	b.Logf("app: %s", app)
	b.ResetTimer()
	for b.Loop() {
		r, err := production.Validate(context.Background(), app, production.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Integrity.Checked != 2066 || len(r.Integrity.Mismatches) != 0 {
			b.Fatalf("integrity %+v", r.Integrity)
		}
	}
}
