//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package runtime

// fionread asks how many bytes a pipe holds: FIONREAD, _IOR('f', 127, int)
// in <sys/filio.h>.
const fionread = 0x4004667f
