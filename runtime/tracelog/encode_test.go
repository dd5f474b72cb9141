package tracelog

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sameAsEncodingJSON fails t unless the hand-written encoder gives for r
// what encoding/json gives: the same bytes, or an error for a record
// encoding/json refuses, and for that one the same error.
func sameAsEncodingJSON(t *testing.T, r *Record) {
	t.Helper()
	want, wantErr := encodeLineReflect(r)
	b, ok := appendRecord(nil, r)
	switch {
	case ok && wantErr != nil:
		t.Fatalf("encoded a record encoding/json refuses (%v):\n%s\nrecord: %#v", wantErr, b, r)
	case !ok && wantErr == nil:
		t.Fatalf("refused a record encoding/json encodes as\n%s\nrecord: %#v", want, r)
	case ok && !bytes.Equal(append(b, '\n'), want):
		t.Fatalf("encoding differs from encoding/json's:\n got %q\nwant %q\nrecord: %#v", append(b, '\n'), want, r)
	}
	got, err := encodeLine(r)
	if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
		t.Fatalf("encodeLine = %q, %v; encoding/json gives %q, %v", got, err, want, wantErr)
	}
}

func TestEncodeLineExamples(t *testing.T) {
	ts := time.Date(2026, 3, 4, 5, 6, 7, 890123400, time.UTC)
	for _, r := range []*Record{
		{},
		{ID: "x", Time: ts, Duration: 0.001, Kind: KindRun, Exit: Int(0), PID: -1},
		{Time: ts.In(time.FixedZone("", -(3*3600 + 30*60)))},
		{Time: ts.In(time.FixedZone("", 3600+1)), Duration: Millis(math.Copysign(0, -1))},
		{Time: ts.In(time.FixedZone("", 25*3600))},
		{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Time: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Duration: Millis(math.NaN())}, {Duration: Millis(math.Inf(-1))},
		{Duration: 1e-7}, {Duration: 1e21}, {Duration: 123456789012345678901234.5}, {Duration: 5e-324},
		{Hook: "<a>&\u2028\u2029\x7f\x00\x1f\"\\\b\f\n\r\t\xff\xc0\xaf\xed\xa0\x80\xe2\x80é😀\ufffd"},
		{Answer: json.RawMessage(" { \"a\" :\t[1 , 2.5e3,\n\"\u2028<\xff\\u00e9\"] } \r\n")},
		{Answer: json.RawMessage(`{"a":1} x`)}, {Payload: json.RawMessage(`"\x01"`)}, {Payload: json.RawMessage(`[`)},
		{Payload: json.RawMessage(strings.Repeat("[", 10001) + strings.Repeat("]", 10001))},
		{Payload: json.RawMessage(strings.Repeat("[", 10000) + strings.Repeat("]", 10000))},
		{Command: []string{}, Notes: []string{""}, Truncated: []string{"a", "b"}},
		{Handlers: []Handler{{}, {Hook: "h", Outcome: "answered", Exit: Int(2), Answer: json.RawMessage(" {} ")},
			{Outcome: "x", Duration: 1.5, Stderr: "\x00"}}},
		{Handlers: []Handler{{Answer: json.RawMessage("nul")}}},
		{Handlers: []Handler{{Duration: Millis(math.Inf(1))}}},
	} {
		sameAsEncodingJSON(t, r)
	}
}

// TestEncodeLineRandom compares the hand-written encoder with
// encoding/json on random records: every field of Record and Handler set
// or left empty at random, with hostile strings, times of any year and
// zone, durations of any size, and answers and payloads that are JSON
// laid out at random or broken at random. The records are filled by
// reflection, so that a field added to Record or Handler is compared too
// (and a field of a new type fails the test until the generator knows it).
func TestEncodeLineRandom(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	refused := 0
	for range n {
		var r Record
		fillRandom(t, rng, reflect.ValueOf(&r).Elem())
		if _, ok := appendRecord(nil, &r); !ok {
			refused++
		}
		sameAsEncodingJSON(t, &r)
	}
	// Both sides must be exercised: records encoded by hand, and records
	// encoding/json refuses.
	t.Logf("%d of %d refused", refused, n)
	if refused == 0 || refused == n {
		t.Errorf("%d of %d records refused: the generator does not cover both cases", refused, n)
	}
}

// FuzzEncodeLine compares the hand-written encoder with encoding/json on
// records made of fuzzed strings, numbers, times and raw JSON.
func FuzzEncodeLine(f *testing.F) {
	f.Add("id", "gate\u2028<&>", "\x00\xff\"\\", []byte(`{"a": [1, "x"]}`), []byte(" null "), 12.5, int64(0), 0, 3)
	f.Add("", "", "", []byte(`{`), []byte(nil), math.Inf(1), int64(-62135596800), -3600, -1)
	f.Add("\xed\xa0\x80", "\t\n", "é", []byte("\"\xff\u2029\""), []byte("1e400"), 1e-7, int64(253402300800), 90000, 0)
	f.Fuzz(func(t *testing.T, id, hook, stderr string, answer, payload []byte, ms float64, unix int64, zone, exit int) {
		r := &Record{ID: id, Hook: hook, HookFrom: From(stderr), Stderr: stderr, Command: []string{hook, id},
			Answer: answer, Payload: payload, Duration: Millis(ms),
			Time: time.Unix(unix, int64(exit)).In(time.FixedZone(hook, zone)), PID: exit, Exit: &exit,
			Handlers: []Handler{{Hook: id, Outcome: stderr, Answer: payload, Duration: Millis(-ms), Reason: hook}},
			Notes:    []string{stderr}}
		sameAsEncodingJSON(t, r)
	})
}

var (
	timeType   = reflect.TypeFor[time.Time]()
	rawType    = reflect.TypeFor[json.RawMessage]()
	millisType = reflect.TypeFor[Millis]()
)

// fillRandom sets v, of a type a Record is made of, to a random value,
// often the empty one.
func fillRandom(t *testing.T, rng *rand.Rand, v reflect.Value) {
	if rng.IntN(3) == 0 && v.Type() != timeType {
		v.SetZero()
		return
	}
	switch {
	case v.Type() == timeType:
		v.Set(reflect.ValueOf(randomTime(rng)))
	case v.Type() == rawType:
		v.SetBytes(randomRaw(rng))
	case v.Type() == millisType:
		v.SetFloat(randomFloat(rng))
	case v.Kind() == reflect.String:
		v.SetString(hostileString(rng))
	case v.Kind() == reflect.Int || v.Kind() == reflect.Int64:
		v.SetInt(randomInt(rng))
	case v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Int:
		p := reflect.New(v.Type().Elem())
		p.Elem().SetInt(randomInt(rng))
		v.Set(p)
	case v.Kind() == reflect.Slice:
		s := reflect.MakeSlice(v.Type(), rng.IntN(4), 4)
		for i := range s.Len() {
			fillRandom(t, rng, s.Index(i))
		}
		v.Set(s)
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			fillRandom(t, rng, v.Field(i))
		}
	default:
		t.Fatalf("the random record generator does not know the type %v", v.Type())
	}
}

// hostilePieces are what random strings are made of: the characters
// encoding/json escapes, those it must not escape, multi-byte characters
// whole and cut, and bytes that are not UTF-8.
var hostilePieces = []string{
	"a", "gate", " ", "<", ">", "&", "\"", "\\", "/", "\x7f", "\x00", "\x01", "\x1f", "\b", "\f", "\n", "\r", "\t",
	"\u2028", "\u2029", "\u2027", "\u202a", "é", "中", "😀", "\ufffd", "\uffff", "\U0010ffff",
	"\xff", "\xfe", "\x80", "\xc0\xaf", "\xe2\x80", "\xe2\x80\xa8"[:2], "\xf0\x9f\x98", "\xed\xa0\x80", "\xf4\x90\x80\x80",
	"\\u0000", "\\ud800", "…[cut]",
}

func hostileString(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(12) {
		if rng.IntN(8) == 0 {
			b.WriteByte(byte(rng.IntN(256)))
			continue
		}
		b.WriteString(hostilePieces[rng.IntN(len(hostilePieces))])
	}
	return b.String()
}

func randomInt(rng *rand.Rand) int64 {
	switch rng.IntN(4) {
	case 0:
		return int64(rng.Uint64())
	case 1:
		return -rng.Int64N(1000)
	case 2:
		return math.MinInt64
	}
	return rng.Int64N(1 << 20)
}

func randomFloat(rng *rand.Rand) float64 {
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e-6, 1e-7, 9.99999e-7, 1e20, 1e21,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1, 12.5, -3.25}
	switch rng.IntN(4) {
	case 0:
		return special[rng.IntN(len(special))]
	case 1:
		return math.Float64frombits(rng.Uint64())
	case 2:
		return math.Round(rng.Float64()*1e9) / 1e3
	}
	return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(60)-30))
}

func randomTime(rng *rand.Rand) time.Time {
	var t time.Time
	switch rng.IntN(5) {
	case 0:
		return t
	case 1:
		// Years from before 0 to after 9999, which encoding/json refuses.
		t = time.Unix(rng.Int64N(1<<39)-(1<<38), rng.Int64N(1e9))
	case 2:
		t = time.Date(rng.IntN(3)*9999-1+rng.IntN(3), time.Month(1+rng.IntN(12)), 1+rng.IntN(31), 23, 59, 59, 999999999, time.UTC)
	default:
		t = time.Unix(1.7e9+rng.Int64N(1e8), rng.Int64N(1e9)*int64(rng.IntN(2)))
	}
	// Zones of whole hours, of minutes, with seconds, and of 24 hours or
	// more, which encoding/json refuses.
	offsets := []int{0, 3600, -5 * 3600, 5*3600 + 30*60, -(9*3600 + 30*60), 3661, -59, 23*3600 + 59*60, 24 * 3600, -25 * 3600, 99*3600 + 59*60}
	if o := offsets[rng.IntN(len(offsets))]; o != 0 || rng.IntN(2) == 0 {
		return t.In(time.FixedZone("Z", o))
	}
	return t.UTC()
}

// randomRaw returns a random JSON value laid out with random white space,
// or, one time in four, one broken at random.
func randomRaw(rng *rand.Rand) []byte {
	var b []byte
	b = appendRandomJSON(rng, b, 0)
	if rng.IntN(4) != 0 {
		return b
	}
	switch rng.IntN(7) {
	case 0:
		return b[:rng.IntN(len(b)+1)]
	case 1:
		b[rng.IntN(len(b))] = byte(rng.IntN(256))
	case 2:
		i := rng.IntN(len(b) + 1)
		return append(b[:i:i], append([]byte{byte(rng.IntN(256))}, b[i:]...)...)
	case 3:
		return append(b, " x"...)
	case 4:
		return append([]byte("\xef\xbb\xbf"), b...)
	case 5:
		return append(b, append([]byte(" "), appendRandomJSON(rng, nil, 0)...)...)
	case 6:
		return []byte(strings.Repeat("[", 10001) + strings.Repeat("]", 10001))
	}
	return b
}

var jsonSpace = []string{"", "", "", " ", "\t", "\n", "\r", " \n  "}

func appendRandomJSON(rng *rand.Rand, b []byte, depth int) []byte {
	b = append(b, jsonSpace[rng.IntN(len(jsonSpace))]...)
	kind := rng.IntN(8)
	if depth > 3 {
		kind %= 5
	}
	switch kind {
	case 0:
		b = append(b, []string{"null", "true", "false"}[rng.IntN(3)]...)
	case 1:
		b = append(b, []string{"0", "-0", "12", "-3.25", "1e5", "1E+5", "2.5e-3", "0.000001", "123456789012345678901234567890"}[rng.IntN(9)]...)
	case 2:
		b = strconv.AppendFloat(b, rng.NormFloat64()*1e6, 'g', -1, 64)
	case 3, 4:
		b = appendRandomJSONString(rng, b)
	case 5:
		b = append(b, '[')
		for i := range rng.IntN(4) {
			if i > 0 {
				b = append(b, jsonSpace[rng.IntN(len(jsonSpace))]+","...)
			}
			b = appendRandomJSON(rng, b, depth+1)
		}
		b = append(b, jsonSpace[rng.IntN(len(jsonSpace))]+"]"...)
	default:
		b = append(b, '{')
		for i := range rng.IntN(4) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, jsonSpace[rng.IntN(len(jsonSpace))]...)
			b = appendRandomJSONString(rng, b)
			b = append(b, jsonSpace[rng.IntN(len(jsonSpace))]+":"...)
			b = appendRandomJSON(rng, b, depth+1)
		}
		b = append(b, jsonSpace[rng.IntN(len(jsonSpace))]+"}"...)
	}
	return append(b, jsonSpace[rng.IntN(len(jsonSpace))]...)
}

// appendRandomJSONString appends a JSON string: escapes of every kind, and
// raw bytes that encoding/json's compaction keeps as they are (U+2028,
// <>&, bytes that are not UTF-8).
func appendRandomJSONString(rng *rand.Rand, b []byte) []byte {
	pieces := []string{"a", " ", "<>&", "\u2028", "\u2029", "é", "\xff", "\xe2\x80", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
		`\u00e9`, `\uD83D\uDE00`, `\ud800`, "\x7f", "{[,:]}"}
	b = append(b, '"')
	for range rng.IntN(6) {
		b = append(b, pieces[rng.IntN(len(pieces))]...)
	}
	return append(b, '"')
}
