package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// maxMessage bounds one message from the client. The largest message is a
// document's whole text; a hooks.json of this size is far beyond any real
// one.
const maxMessage = 64 << 20

// codec frames messages with LSP's Content-Length headers, as jsonrpc2's
// VSCodeObjectCodec does, but a message whose body is not a JSON-RPC
// message is logged and skipped instead of ending the connection: one bad
// message from a client must not take the server away from the editor. A
// header block it cannot read still ends the connection, since nothing
// tells where the next message starts.
type codec struct {
	log *log.Logger
}

func (c codec) WriteObject(w io.Writer, obj any) error {
	var data []byte
	var err error
	if m, ok := obj.(json.Marshaler); ok {
		// jsonrpc2's messages encode themselves with json.Marshal: its
		// output is compact already, and json.Marshal would check and
		// compact it once more.
		data, err = m.MarshalJSON()
	} else {
		data, err = json.Marshal(obj)
	}
	if err != nil {
		return err
	}
	return writeFrame(w, data)
}

// writeFrame writes one message: its header and its body.
func writeFrame(w io.Writer, body []byte) error {
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}

// stream is the connection's object stream, as jsonrpc2's buffered one,
// with writeRaw besides for a message the server has encoded itself.
type stream struct {
	codec codec
	conn  io.ReadWriteCloser
	r     *bufio.Reader

	mu sync.Mutex // guards w
	w  *bufio.Writer

	// broken is the header block the stream could not read, which ended
	// the connection.
	broken atomic.Pointer[framingError]
}

func newStream(conn io.ReadWriteCloser, c codec) *stream {
	return &stream{codec: c, conn: conn, r: bufio.NewReader(conn), w: bufio.NewWriter(conn)}
}

// ReadObject reads the next message; only the connection's reader calls
// it.
func (s *stream) ReadObject(v any) error {
	err := s.codec.ReadObject(s.r, v)
	var fe framingError
	if errors.As(err, &fe) {
		s.broken.Store(&fe)
	}
	return err
}

// framingError is a header block the server cannot read: nothing tells
// where the next message starts.
type framingError string

func (e framingError) Error() string { return string(e) }

func (s *stream) WriteObject(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.codec.WriteObject(s.w, obj); err != nil {
		return err
	}
	return s.w.Flush()
}

// writeRaw writes a message whose body is already JSON-RPC.
func (s *stream) writeRaw(body []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := writeFrame(s.w, body); err != nil {
		return err
	}
	return s.w.Flush()
}

func (s *stream) Close() error { return s.conn.Close() }

func (c codec) ReadObject(r *bufio.Reader, v any) error {
	for {
		body, err := readFrame(r)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(body, v); err != nil {
			c.log.Printf("skipped a message that is not JSON-RPC (%d bytes): %v", len(body), err)
			continue
		}
		return nil
	}
}

// readFrame reads one header block and the body it announces.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for n := 0; ; n++ {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && (n > 0 || line != "") {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if n > 32 || len(line) > 1024 {
			return nil, framingError("a message header of more than 32 lines or 1 KiB")
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, framingError(fmt.Sprintf("a message header line without a colon: %q", line))
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			l, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || l < 0 {
				return nil, framingError(fmt.Sprintf("a Content-Length that is not a length: %q", value))
			}
			length = l
		}
	}
	if length < 0 {
		return nil, framingError("a message without a Content-Length header")
	}
	if length > maxMessage {
		return nil, framingError(fmt.Sprintf("a message of %d bytes, over the limit of %d", length, maxMessage))
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}
