package claim

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// charRefAt matches a CommonMark entity or numeric character reference at
// the start of a text.
var charRefAt = regexp.MustCompile(`^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// charRefValue returns the characters the reference "&ref;" stands for
// (ref without "&" and ";"), and false for an entity name HTML5 does not
// define (CommonMark keeps such a reference as written).
func charRefValue(ref string) ([]byte, bool) {
	switch {
	case strings.HasPrefix(ref, "#x"), strings.HasPrefix(ref, "#X"):
		v, _ := strconv.ParseInt(ref[2:], 16, 32)
		return utf8.AppendRune(nil, util.ToValidRune(rune(v))), true
	case strings.HasPrefix(ref, "#"):
		v, _ := strconv.ParseInt(ref[1:], 10, 32)
		return utf8.AppendRune(nil, util.ToValidRune(rune(v))), true
	}
	e, ok := util.LookUpHTML5EntityByName(ref)
	if !ok {
		return nil, false
	}
	return e.Characters, true
}

// DecodeInline returns the value CommonMark gives the text src[start:stop]
// of a text node: backslash escapes of ASCII punctuation ("\%" is "%") and
// entity and numeric character references ("&percnt;", "&#37;", "&nbsp;")
// decoded; an unknown entity name stays as written. offs[i] is the source
// offset of dec's byte i: an escaped character maps to itself (the byte
// after its backslash), every byte a reference decodes to maps to its "&";
// offs[len(dec)] = stop. Text without "\" or "&" is returned as it is, with
// offs[i] = start+i.
func DecodeInline(src []byte, start, stop int) (dec []byte, offs []int) {
	seg := src[start:stop]
	offs = make([]int, 0, len(seg)+1)
	if !strings.ContainsAny(string(seg), `\&`) {
		for i := start; i <= stop; i++ {
			offs = append(offs, i)
		}
		return seg, offs
	}
	dec = make([]byte, 0, len(seg))
	for i := start; i < stop; {
		c := src[i]
		if c == '\\' && i+1 < stop && util.IsPunct(src[i+1]) {
			dec, offs = append(dec, src[i+1]), append(offs, i+1)
			i += 2
			continue
		}
		if c == '&' {
			if m := charRefAt.Find(src[i:stop]); m != nil {
				if v, ok := charRefValue(string(m[1 : len(m)-1])); ok {
					dec = append(dec, v...)
					for range v {
						offs = append(offs, i)
					}
					i += len(m)
					continue
				}
			}
		}
		dec, offs = append(dec, c), append(offs, i)
		i++
	}
	return dec, append(offs, stop)
}

// SourceEnd returns the source offset just past the bytes that literal
// byte i-1 was read from: past the whole character reference when that
// byte was decoded from one. It returns -1 when the byte has no source
// (goldmark made it up) or i is out of range.
func (c Claim) SourceEnd(src []byte, i int) int {
	if i <= 0 || i > len(c.Offsets) || c.Offsets[i-1] < 0 || c.Offsets[i-1] >= len(src) {
		return -1
	}
	o := c.Offsets[i-1]
	if src[o] == '&' && c.Literal[i-1] != '&' {
		if m := charRefAt.Find(src[o:]); m != nil {
			return o + len(m)
		}
	}
	return o + 1
}

// Decoded reports whether any of the literal's bytes [a, b) was written as
// a character reference or a backslash escape in the source.
func (c Claim) Decoded(src []byte, a, b int) bool {
	for i := max(a, 0); i < b && i < len(c.Offsets); i++ {
		o := c.Offsets[i]
		if o < 0 || o >= len(src) {
			continue
		}
		if src[o] == '&' && c.Literal[i] != '&' || o > 0 && src[o-1] == '\\' && src[o] == c.Literal[i] && util.IsPunct(src[o]) {
			return true
		}
	}
	return false
}
