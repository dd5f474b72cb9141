package runtime

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// The bound is tested at 1 MiB: the logic is the same as at MaxPayload,
// without reading 256 MiB into memory.
func TestReadPayloadBound(t *testing.T) {
	const max = 1 << 20
	at := bytes.Repeat([]byte{'x'}, max)
	b, err := readPayload(bytes.NewReader(at), max)
	if err != nil || !bytes.Equal(b, at) {
		t.Fatalf("exactly %d bytes: got %d bytes, %v; want them all, no error", max, len(b), err)
	}
	over := append(at, 'y')
	b, err = readPayload(bytes.NewReader(over), max)
	if b != nil || err == nil || err.Error() != "the payload on stdin is larger than 1 MiB" {
		t.Fatalf("one byte over: got %d bytes, %v", len(b), err)
	}
}

func TestReadPayload(t *testing.T) {
	b, err := ReadPayload(strings.NewReader(`{"a":1}`))
	if err != nil || string(b) != `{"a":1}` {
		t.Fatalf("got %q, %v", b, err)
	}
	b, err = ReadPayload(strings.NewReader(""))
	if err != nil || len(b) != 0 {
		t.Fatalf("empty stdin: got %q, %v", b, err)
	}
	// A reader that fails after some bytes: nothing of what it gave is
	// returned.
	r := io.MultiReader(strings.NewReader(`{"a":`), iotest.ErrReader(errors.New("input/output error")))
	b, err = ReadPayload(r)
	if b != nil || err == nil || err.Error() != "reading the payload on stdin: input/output error" {
		t.Fatalf("failing reader: got %q, %v", b, err)
	}
	if got, want := MaxPayload>>20, 256; got != want {
		t.Errorf("MaxPayload is %d MiB, want %d", got, want)
	}
}
