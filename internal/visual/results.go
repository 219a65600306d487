package visual

import (
	"context"
	"path/filepath"
	"time"

	"github.com/understudy-dev/understudy/internal/files"
)

// CaptureResult is a capture kept for review (visual_capture's answer).
type CaptureResult struct {
	Path   string `json:"path"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Env    Env    `json:"env"`
	Masks  int    `json:"masks"`
}

// ExpectResult is a comparison that passed (visual_expect's answer).
type ExpectResult struct {
	Name          string  `json:"name"`
	Passed        bool    `json:"passed"`
	DiffPixels    int     `json:"diff_pixels"`
	AAPixels      int     `json:"antialiased_pixels"`
	MaskedPixels  int     `json:"masked_pixels"`
	MismatchRatio float64 `json:"mismatch_ratio"`
	Width         int     `json:"width"`
	Height        int     `json:"height"`
}

// UpdateResult is a baseline written (visual_update_baseline's answer).
type UpdateResult struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Env      Env    `json:"env"`
	Replaced bool   `json:"replaced"`
}

// BaselineDir is the baselines folder dir, checked against the roots
// (field baselineDir); "" is <artifacts>/baselines, created.
func BaselineDir(ctx context.Context, roots *files.Roots, dir string) (string, error) {
	if dir == "" {
		art, err := roots.SubDir("baselines")
		if err != nil {
			return "", err
		}
		dir = art
	}
	return roots.CheckDir(ctx, "baselineDir", dir)
}

// artifactPath is a new file in the artifacts folder.
func artifactPath(ctx context.Context, roots *files.Roots, stem string) (string, error) {
	dir, err := roots.CheckDir(ctx, "path", "")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, stem+"-"+time.Now().UTC().Format("20060102-150405.000000")+".png"), nil
}

// Keep writes the shot, its masks painted out, as a new file
// visual[-name]-<time>.png in the artifacts folder through the one writer.
func Keep(ctx context.Context, roots *files.Roots, name string, s *Shot) (*CaptureResult, error) {
	out := s.PNG
	if len(s.Masks) > 0 {
		img, _ := Decode(s.PNG)
		var err error
		if out, err = Encode(Paint(img, s.Masks)); err != nil {
			return nil, err
		}
	}
	stem := "visual"
	if name != "" {
		stem += "-" + name
	}
	p, err := artifactPath(ctx, roots, stem)
	if err != nil {
		return nil, err
	}
	if p, err = roots.Write(ctx, files.Out{Field: "name", Path: p, Unique: true}, out); err != nil {
		return nil, err
	}
	return &CaptureResult{Path: p, Width: s.Width, Height: s.Height, Env: s.Env, Masks: len(s.Masks)}, nil
}

// Verdict judges a settled shot (Judge): the counts when it passes;
// otherwise the actual and diff PNGs are written in the artifacts folder
// through the one writer and named by VISUAL_MISMATCH.
func (e *Expectation) Verdict(ctx context.Context, roots *files.Roots, s *Shot) (*ExpectResult, error) {
	r, passed, err := e.Judge(s)
	if err != nil {
		return nil, err
	}
	if passed {
		return &ExpectResult{Name: e.Name, Passed: true, DiffPixels: r.Diff, AAPixels: r.AA, MaskedPixels: r.Masked,
			MismatchRatio: r.Ratio, Width: r.Width, Height: r.Height}, nil
	}
	actual, err := artifactPath(ctx, roots, "visual-"+e.Name+"-actual")
	if err != nil {
		return nil, err
	}
	diffPNG, err := Encode(r.Image)
	if err != nil {
		return nil, err
	}
	diff := actual[:len(actual)-len(".png")] + "-diff.png"
	if actual, err = roots.Write(ctx, files.Out{Field: "name", Path: actual, Unique: true}, s.PNG); err != nil {
		return nil, err
	}
	if diff, err = roots.Write(ctx, files.Out{Field: "name", Path: diff, Unique: true}, diffPNG); err != nil {
		return nil, err
	}
	return nil, e.Mismatch(r, actual, diff)
}

// Update makes the shot baseline name in dir (WriteBaseline), with the
// environment it was taken in.
func Update(ctx context.Context, roots *files.Roots, dir, name string, s *Shot) (*UpdateResult, error) {
	p := filepath.Join(dir, name+".png")
	replaced, err := WriteBaseline(ctx, roots, dir, name, s.PNG, Meta{Width: s.Width, Height: s.Height, Env: s.Env, CreatedAt: time.Now().UTC()})
	if err != nil {
		return nil, err
	}
	return &UpdateResult{Name: name, Path: p, Width: s.Width, Height: s.Height, Env: s.Env, Replaced: replaced}, nil
}
