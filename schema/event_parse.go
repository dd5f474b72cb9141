package schema

import (
	"fmt"
	"strings"
)

// ParseEvent accepts one of the six event names, and suggests the nearest
// for anything else.
func ParseEvent(name string) (Event, error) {
	e := Event(name)
	if e.Valid() {
		return e, nil
	}
	msg := fmt.Sprintf("unknown event %q", name)
	if near := Nearest(name, EventNames()); near != "" {
		msg += fmt.Sprintf(": did you mean %q?", near)
	}
	return "", fmt.Errorf("%s (the events are %s)", msg, strings.Join(EventNames(), ", "))
}
