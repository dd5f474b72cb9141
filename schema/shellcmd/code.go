package shellcmd

// ShellCode returns, for the words of one simple command that runs a
// shell with its code given by -c ("sh -c '...'", "bash -euc '...'", past
// wrappers such as env, timeout, nice and hookctl trace --), the index of
// the word that holds the code and of the word that names the shell; both
// are -1 when the command runs no shell with -c. The code word is read as
// every reader of commands reads it (see Call.Depth), so that lint checks
// the code that trust follows.
func ShellCode(args []Word) (code, shell int) {
	code, _ = shellCode(args)
	if code < 0 {
		return -1, -1
	}
	shell, _ = skipWrappers(args)
	return code, shell
}
