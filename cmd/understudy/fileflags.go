package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fileFlags are the options that say where tools may read and write files
// (internal/files): --file-root DIR (repeatable), --artifacts-dir DIR and
// --allow-any-file.
type fileFlags struct {
	roots     rootList
	artifacts string
	allowAny  bool
}

type rootList []string

func (r *rootList) String() string { return strings.Join(*r, ",") }
func (r *rootList) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("--file-root needs a folder")
	}
	*r = append(*r, v)
	return nil
}

func (f *fileFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.roots, "file-root", "also read and write files under this folder (repeatable)")
	fs.StringVar(&f.artifacts, "artifacts-dir", "", "folder for screenshots and other outputs (default: the user cache folder's understudy/artifacts)")
	fs.BoolVar(&f.allowAny, "allow-any-file", false, "read and write files anywhere (lifts the roots)")
}

// check makes the folders absolute and refuses roots that are not folders.
func (f *fileFlags) check() error {
	for i, r := range f.roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return fmt.Errorf("--file-root %q: %v", r, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return fmt.Errorf("--file-root %q is not a folder", r)
		}
		f.roots[i] = abs
	}
	if f.artifacts != "" {
		abs, err := filepath.Abs(f.artifacts)
		if err != nil {
			return fmt.Errorf("--artifacts-dir %q: %v", f.artifacts, err)
		}
		f.artifacts = abs
	}
	return nil
}
