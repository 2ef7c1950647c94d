package frontmatter

import (
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// dateKeys are the front matter fields Hugo reads as dates (lower case:
// Hugo matches them case-insensitively).
var dateKeys = map[string]bool{"date": true, "publishdate": true, "pubdate": true, "published": true, "lastmod": true, "modified": true, "expirydate": true, "unpublishdate": true}

// dateLayouts are the layouts a date string can take for Hugo (the
// formats its time conversion tries, spf13/cast's list).
var dateLayouts = []string{
	time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05", time.RFC1123Z, time.RFC1123, time.RFC822Z, time.RFC822,
	time.RFC850, time.ANSIC, time.UnixDate, time.RubyDate, "2006-01-02 15:04:05.999999999 -0700 MST", "2006-01-02",
	"02 Jan 2006", "2006-01-02T15:04:05-0700", "2006-01-02 15:04:05 -07:00", "2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05Z0700", "2006-01-02 15:04:05", time.Kitchen, time.Stamp,
	time.StampMilli, time.StampMicro, time.StampNano,
}

// CheckDates reports each top-level date field of fields (decoded from
// the front matter b of src, indexed by ix) whose value is a string Hugo
// cannot read as a date: Hugo fails the build on it. The finding is a
// page-front-matter error at the field's value.
func CheckDates(src []byte, b Block, ix *diag.LineIndex, fields map[string]any) diag.List {
	var bad []string
	for k, v := range fields {
		s, ok := v.(string)
		if !ok || !dateKeys[strings.ToLower(k)] || s == "" || readableDate(s) {
			continue
		}
		bad = append(bad, k)
	}
	if len(bad) == 0 {
		return nil
	}
	var ds diag.List
	at := map[string]Field{}
	for _, f := range Fields(src, b, bad) {
		if _, ok := at[f.Key]; !ok {
			at[f.Key] = f
		}
	}
	for _, k := range bad {
		off, end := b.Open, ix.LineEnd(b.Open)
		if f, ok := at[k]; ok {
			off, end = f.Start, ix.Pos(f.End)
			for off < f.End && (src[off] == ' ' || src[off] == '\t') {
				off++
			}
		}
		ds = append(ds, diag.Errorf(ix.Pos(off), diag.PageFrontMatter, "%s %q is not a date Hugo can read (the build fails on it); expected a date such as 2026-12-01 or 2026-12-01T10:00:00+09:00", k, fields[k]).Spanning(end))
	}
	ds.Sort()
	return ds
}

func readableDate(s string) bool {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	return false
}
