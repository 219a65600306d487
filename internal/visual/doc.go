// Package visual compares screenshots with baselines: a perceptual pixel
// diff (a YIQ colour distance with a threshold, and an anti-aliasing
// allowance: a differing pixel that looks like an anti-aliased edge in
// either image is counted apart, not as a difference), masks for regions
// that change on every run, a diff image, and a baseline store of PNGs
// with the environment each was taken in. A Shot is one capture settled
// until it is stable (or matches), its masks in image pixels; an
// Expectation compares it with a baseline and says how it failed. Take
// settles a capture from a Source with its masks; Keep, Verdict and Update
// write what a capture, a comparison and a baseline update leave through
// the one writer (files.Roots) and answer their results.
package visual
