// Package spec reads figure specs (figures/NAME.toml) and checks what can
// be checked without drawing: the structure each chart kind needs
// (kinds.go), the limits on what one spec may ask to draw (limits.go,
// with the layout a figure's height is measured in, layout.go), the texts
// each language needs, the runes its font chain cannot draw, and the
// numbers of the texts judged as claims (texts.go). Every finding is at
// the spec's file:line:col: the spec keeps where each key and string is
// written (textpos.go), and KeyPos, ValuePos, QuotedPos and Find give
// the positions package figure reports its data findings at.
package spec
