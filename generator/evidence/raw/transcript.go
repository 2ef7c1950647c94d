package raw

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Entry is one numeric reading in a lab transcript: the section it sits in
// ("" before the first section header), its key as written, the number and
// the position and raw text of the value token.
type Entry struct {
	Section string
	Key     string
	Number  Number
	Raw     string
	Pos     diag.Position
}

var (
	bannerLine  = regexp.MustCompile(`^\s*[=\-#*]{3,}\s*$`)
	sectionLine = regexp.MustCompile(`^\s*\[([^\]\s]+)\]\s*(.*)$`)
	deltaLine   = regexp.MustCompile(`^\s*([A-Za-z_][\w.:|-]*)\s+([+\-−]\d[\d,]*(?:\.\d+)?)\s*$`)
	colonLine   = regexp.MustCompile(`^\s*([A-Za-z_][\w.|-]*):\s+(\S+)\s*$`)
	kvToken     = regexp.MustCompile(`([A-Za-z_][\w.-]*)=(\S+)`)
)

// ReadTranscript reads a result.txt style lab transcript:
//
//	==========================       banner lines of =, -, # or *
//	[D-2] passthrough STRICT         section header "[ID] title"
//	$ curl -s -o /dev/null \         echoed command, with \ continuations
//	    -w '...' https://...
//	CURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200   key=value tokens
//	upstream_cx_destroy +1           counter delta "name +N"
//	upstream_cx_active: 0            gauge "name: value"
//	# comment
//
// Only numeric values are returned (see ParseCell); key=value tokens whose
// value is not a number (who=backend-a) are skipped. Text that is not clean
// UTF-8 is an error (see CheckText).
func ReadTranscript(file string, src []byte) ([]Entry, diag.List) {
	ix := diag.NewLineIndex(file, src)
	if errs := CheckText(ix, src); errs != nil {
		return nil, errs
	}
	var (
		out     []Entry
		section string
		cont    bool
	)
	for _, ln := range splitLines(src) {
		text := string(src[ln.start:ln.end])
		trimmed := strings.TrimSpace(text)
		if cont {
			cont = strings.HasSuffix(trimmed, "\\")
			continue
		}
		switch {
		case trimmed == "", bannerLine.MatchString(text), strings.HasPrefix(trimmed, "#"):
			continue
		case strings.HasPrefix(trimmed, "$ ") || trimmed == "$":
			cont = strings.HasSuffix(trimmed, "\\")
			continue
		}
		if m := sectionLine.FindStringSubmatch(text); m != nil && !strings.Contains(m[1], "=") {
			section = m[1]
			continue
		}
		add := func(key string, vstart, vend int) {
			raw := text[vstart:vend]
			n, ok := ParseCell(raw)
			if !ok {
				return
			}
			out = append(out, Entry{Section: section, Key: key, Number: n, Raw: raw,
				Pos: ix.Pos(ln.start + vstart)})
		}
		if m := deltaLine.FindStringSubmatchIndex(text); m != nil {
			add(text[m[2]:m[3]], m[4], m[5])
			continue
		}
		if m := colonLine.FindStringSubmatchIndex(text); m != nil {
			add(text[m[2]:m[3]], m[4], m[5])
			continue
		}
		for _, m := range kvToken.FindAllStringSubmatchIndex(text, -1) {
			add(text[m[2]:m[3]], m[4], m[5])
		}
	}
	return out, nil
}
