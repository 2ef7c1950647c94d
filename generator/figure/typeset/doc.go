// Package typeset draws figure text: the font fallback chain of each
// language (FontChains; the CJK fonts evdoc embeds under fonts/, a
// project's assets/fonts overriding them), which runes a chain cannot
// draw (Missing), and Outlines, a gonum/plot text handler that draws
// every glyph as a filled outline from the first font of the chain that
// has it, recording the glyphs it drew and the smallest size.
package typeset
