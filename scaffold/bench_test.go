package scaffold

import (
	"bytes"
	"fmt"
	"testing"
)

// bigHooks is a hooks.json of n hooks, each with a matcher group.
func bigHooks(n int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  \"hook-%d\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"run_command|view_file\",\n        \"hooks\": [{\"command\": \"./hooks/h%d.sh\", \"timeout\": 10}]\n      }\n    ]\n  }", i, i)
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

func BenchmarkAddHooks(b *testing.B) {
	for _, n := range []int{10, 1000} {
		src := bigHooks(n)
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				if _, err := AddHooks(src, gateHook("new-hook")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
