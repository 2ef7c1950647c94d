package spec

// Limits on what one figure spec may ask to draw, so that rendering is
// bounded in time and memory whatever the spec (specs are repository
// input of up to safefile.SpecMaxSize bytes). A spec over a limit is a
// figure-spec error naming the limit, before anything is drawn.
// docs/guide/figures.md lists them.
const (
	// MaxPanels is the most [[panel]]s of a figure.
	MaxPanels = 24
	// MaxSeries is the most series of one panel: bars or categories of a
	// group, groups of a bars, rate or comparison panel, runs of a
	// spectrum, lines of a time series, counters of a timeline.
	MaxSeries = 40
	// MaxPoints is the most values one figure draws in all (points,
	// bars, buckets, rows read from a {i} template).
	MaxPoints = 5000
	// MaxHeight is the tallest drawing, in CSS px (the PNG is twice
	// that): a figure whose panels, legend and title would be taller,
	// wide or narrow, is refused.
	MaxHeight = 12000
)
