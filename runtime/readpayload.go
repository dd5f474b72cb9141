package runtime

import (
	"fmt"
	"io"
)

// MaxPayload bounds the payload read from stdin; an agent's payloads are
// kilobytes, a few megabytes with a large file's content.
const MaxPayload = 256 << 20

// ReadPayload reads a payload from r, as run, run --from and adapt read
// it on stdin: at most MaxPayload bytes, a longer one refused whole.
func ReadPayload(r io.Reader) ([]byte, error) {
	return readPayload(r, MaxPayload)
}

// readPayload is ReadPayload with its bound, max bytes, a whole number of
// MiB.
func readPayload(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("reading the payload on stdin: %v", err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("the payload on stdin is larger than %d MiB", max>>20)
	}
	return b, nil
}
