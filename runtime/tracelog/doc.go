// Package tracelog is the log of what hooks did: the record of one run (a
// handler wrapped by hookctl trace, or a dispatch of hookctl run), the log
// file those records are appended to, and the ways to read it back.
//
// The log is JSON Lines: one Record a line, each written with a single
// write(2) to a file opened with O_APPEND, under an exclusive flock(2) of
// FILE.lock that writers take in turn, so that any number of handlers
// appending at once never interleave or lose a line, and a line that
// only partly fits on a full disk is taken back whole. A line is at most
// MaxRecord bytes: what does not fit (a large payload, a long answer) is cut
// and named in the record's Truncated field. The file is renamed to
// FILE.1 once it reaches RotateSize, replacing the older one; the rename
// happens under the same lock, so that writers racing at the limit rotate
// once, never twice, and no record is lost.
//
// Records are written by handlers, which a cloned repository can supply:
// readers treat every line as hostile. Lines that are not records are
// counted and skipped, and Visible and SafeJSON make every string safe to
// print on a terminal.
package tracelog
