// Package output writes what `evdoc figures` commits under
// assets/figures (OutputDir): every figure of a project drawn in every
// language (PNG, SVG and the narrow SVG), and NAME.json, the record of
// the evidence and spec it was drawn from; files are written only when
// they changed, atomically, never through a link out of the project.
// Check compares the committed files with what the evidence gives now and
// says which evidence change made a figure stale.
package output
