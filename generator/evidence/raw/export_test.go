package raw

// What the tests of package raw_test need of raw's internals. They are an
// external test package because they read files by format name through
// package formats, which imports raw (and the readers outside it).

const (
	BOM      = bom
	ChunkLen = chunkLen
)

var (
	FieldDelim    = fieldDelim
	IsDigitBefore = isDigitBefore
	KeyNumbers    = keyNumbers
	NormaliseCell = normaliseCell
	UnitWord      = unitWord
)

// Chunks is the number of chunks l holds its readings in.
func Chunks(l *Readings) int { return len(l.ents.c) }
