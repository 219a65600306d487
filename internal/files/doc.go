// Package files decides which files the server may read and write on an
// agent's behalf: only under roots (the MCP client's roots, the working
// directory, the app root, the artifacts folder and every --file-root),
// unless the operator passed --allow-any-file.
//
// Every tool that takes a path goes through the one check here:
// CheckRead for files given to the page (set_files, drop_file, file: URLs),
// CheckWrite for files the server writes. Every write goes through the one
// writer here (Roots.Write, WriteAll, MakeDir's Dir): screenshots, traces,
// HAR, baselines, storage state, reports; TestOneWriter keeps it so. A path is judged by where it really is:
// symbolic links are resolved on the part of the path that exists, so a link
// inside a root that points outside it is refused. An existing file is
// replaced only when this server wrote it in this process or the caller
// passed overwrite. A relative output path lands in the artifacts folder.
// PathList is the list of files a caller gives the page, checked before
// the roots are asked (at most MaxPaths, each absolute); ForInput and
// ForDrop check them against the roots and their size limits. OutFile is
// where an output named by a path or a folder goes.
package files
