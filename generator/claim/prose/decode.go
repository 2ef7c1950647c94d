package prose

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// charRefRe matches a CommonMark entity or numeric character reference.
var charRefRe = regexp.MustCompile(`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// decodeCharRefs decodes the character references in seg, which starts at
// source offset start and ends at stop: dec is the text node's value and
// offs[i] the source offset of dec's byte i (offs[len(dec)] = stop). offs
// is nil when seg holds no reference that decodes. A reference after a
// backslash is literal text, and an unknown entity name is kept as written.
func decodeCharRefs(seg []byte, start, stop int) (dec []byte, offs []int) {
	if bytes.IndexByte(seg, '&') < 0 {
		return nil, nil // most text: no reference
	}
	ms := charRefRe.FindAllIndex(seg, -1)
	prev := 0
	for _, m := range ms {
		if m[0] > 0 && seg[m[0]-1] == '\\' {
			continue
		}
		ref := string(seg[m[0]+1 : m[1]-1])
		var val []byte
		switch {
		case strings.HasPrefix(ref, "#x"), strings.HasPrefix(ref, "#X"):
			v, _ := strconv.ParseInt(ref[2:], 16, 32)
			val = utf8.AppendRune(nil, util.ToValidRune(rune(v)))
		case strings.HasPrefix(ref, "#"):
			v, _ := strconv.ParseInt(ref[1:], 10, 32)
			val = utf8.AppendRune(nil, util.ToValidRune(rune(v)))
		default:
			e, ok := util.LookUpHTML5EntityByName(ref)
			if !ok {
				continue
			}
			val = e.Characters
		}
		if offs == nil {
			dec, offs = make([]byte, 0, len(seg)), make([]int, 0, len(seg)+1)
		}
		for i := prev; i < m[0]; i++ {
			dec, offs = append(dec, seg[i]), append(offs, start+i)
		}
		for range val {
			offs = append(offs, start+m[0])
		}
		dec = append(dec, val...)
		prev = m[1]
	}
	if offs == nil {
		return nil, nil
	}
	for i := prev; i < len(seg); i++ {
		dec, offs = append(dec, seg[i]), append(offs, start+i)
	}
	return dec, append(offs, stop)
}

// DecodeCharRefs is decodeCharRefs for other stages that read a text
// node's value (the translation checks): it decodes the CommonMark entity
// and numeric character references in seg, which starts at source offset
// start and ends at stop, and returns the decoded bytes and, for each, its
// source offset (offs[len(dec)] = stop); both are nil when seg holds no
// reference that decodes.
func DecodeCharRefs(seg []byte, start, stop int) (dec []byte, offs []int) {
	return decodeCharRefs(seg, start, stop)
}
