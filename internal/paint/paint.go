// Package paint makes the colours of what hookctl prints for people. They
// follow color.NoColor, which hookctl sets from --color (auto colours a
// terminal unless NO_COLOR is set; always and never force it).
package paint

import "github.com/fatih/color"

// New returns a colour of attrs that follows color.NoColor. color.New also
// reads NO_COLOR itself and then stays colourless for good, which would
// defeat an explicit --color always; so every colour is made through New,
// when it is used, after --color is applied.
func New(attrs ...color.Attribute) *color.Color {
	c := color.New(attrs...)
	if !color.NoColor {
		c.EnableColor()
	}
	return c
}
