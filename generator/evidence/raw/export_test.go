package raw

import (
	"fmt"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// What the tests of package raw_test need of raw's internals. They are an
// external test package because they read files by format name through
// package formats, which imports raw (and the readers outside it).

const (
	BOM                 = bom
	ChunkLen            = chunkLen
	MaxCompiledPatterns = maxCompiledPatterns
)

var (
	AccessLogUnit   = accessLogUnit
	FieldDelim      = fieldDelim
	IsDigitBefore   = isDigitBefore
	IstioNonNumber  = istioNonNumber
	KeyNumbers      = keyNumbers
	NormaliseCell   = normaliseCell
	TranscriptLines = transcriptLines
	UnitWord        = unitWord
)

// CompiledPatterns is the number of patterns memoized.
func CompiledPatterns() int {
	compiledPatterns.Lock()
	defer compiledPatterns.Unlock()
	return len(compiledPatterns.m)
}

// Chunks is the number of chunks l holds its readings in.
func Chunks(l *Readings) int { return len(l.ents.c) }

// Unaccounted lists the numeric fields of the spans of view (src with the
// text that is not data blanked) that the readings rs and diagnostics
// errs leave unaccounted for, "line:col field" each.
func Unaccounted(ix *diag.LineIndex, src, view []byte, spans []LineSpan, rs []Reading, errs diag.List) []string {
	acc := newAccounting(ListOf("f", src, rs), errs, nil)
	var out []string
	for _, sp := range spans {
		text := string(view[sp.Start:sp.End])
		p := ix.Pos(sp.Start)
		for _, f := range numericFields(text) {
			a, b := sp.Start+f.start, sp.Start+f.end
			if !acc.accounted(p.Line, a, b, text[f.start:f.end]) {
				out = append(out, fmt.Sprintf("%d:%d %s", p.Line, p.Column+f.start, text[f.start:f.end]))
			}
		}
	}
	return out
}
