//go:build windows

package tracelog

// systemSignalNames is empty: Windows has no signals of its own. A record
// written elsewhere that names one reads back as SIG and its number.
var systemSignalNames = [...]namedSignal{}
