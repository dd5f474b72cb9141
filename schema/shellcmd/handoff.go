package shellcmd

import "strings"

// handsCommand says, of a program that runs a command it is given as a
// string, or code of its own language, or later, how it does, "" when
// its arguments give it none: what that command runs is not read.
//
//   - script -c CMD, flock FILE -c CMD, su, runuser and sg -c CMD hand
//     the command to a shell (util-linux 2.38, shadow 4.13);
//   - watch CMD hands its words, joined, to sh -c, but with -x (procps);
//   - tmux's commands start shells and programs, and read files of its
//     commands; expect runs Tcl; at and batch run the commands they read
//     later; GNU parallel builds the commands it runs.
func handsCommand(name string, args []Word) string {
	const unread = ", which hookctl does not read: what it runs is not known"
	switch name {
	case "script", "flock", "su", "runuser", "sg":
		for _, a := range args {
			t := a.Text
			if !a.Lit {
				// -c in a variable, or a command
				return name + " is given an option or command built only when the command runs" + unread
			}
			if t == "-c" || t == "--command" || strings.HasPrefix(t, "--command=") ||
				len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsRune(t[1:], 'c') && name != "flock" {
				return name + " hands a shell the command it is given (-c)" + unread
			}
		}
	case "watch":
		for _, a := range args {
			if a.Lit && (a.Text == "-x" || a.Text == "--exec") {
				return ""
			}
		}
		if len(args) > 0 {
			return "watch hands sh -c the command it is given" + unread
		}
	case "tmux":
		if len(args) > 0 {
			return "tmux starts shells and programs, and reads files of its commands" + unread
		}
	case "expect":
		return "expect runs Tcl code, and the programs it spawns" + unread
	case "at", "batch":
		return name + " runs later the commands it reads" + unread
	case "parallel":
		return "parallel builds the commands it runs from its arguments and input" + unread
	}
	return ""
}
