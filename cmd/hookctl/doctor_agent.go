package main

import (
	"os"
	"time"

	"github.com/fatih/color"
)

// The colours of doctor's marks.
var (
	greenAttr  = color.FgGreen
	yellowAttr = color.FgYellow
	redAttr    = color.FgRed
)

// modTime is when the file at path was last written, zero when it cannot
// be told.
func modTime(path string) time.Time {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}
