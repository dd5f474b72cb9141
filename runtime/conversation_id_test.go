package runtime

import (
	"regexp"
	"testing"

	"github.com/google/uuid"
)

// TestNewConversationID: a payload made up for a new conversation names it
// by a random UUID of version 4 and RFC 9562's variant, as the agent does,
// which a UUID parser reads back the same; two are never the same.
func TestNewConversationID(t *testing.T) {
	shape := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := newConversationID()
		if !shape.MatchString(id) {
			t.Fatalf("%q is not a version 4 UUID", id)
		}
		u, err := uuid.Parse(id)
		if err != nil || u.String() != id || u.Version() != 4 || u.Variant() != uuid.RFC4122 {
			t.Fatalf("%q read back as %v (version %d, variant %v), %v", id, u, u.Version(), u.Variant(), err)
		}
		if seen[id] {
			t.Fatalf("%q came twice", id)
		}
		seen[id] = true
	}
}
