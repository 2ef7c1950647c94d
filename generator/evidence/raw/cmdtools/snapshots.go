package cmdtools

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/shopspring/decimal"
)

// Repeated snapshots of a system tool's table (kubectl top, docker stats
// --no-stream), each after the line a lab's capture loop prints first:
//
//	while true; do date -Is; kubectl top pod; sleep 10; done >top.txt
//
// A timestamp line is a line holding only a time with its zone, as date
// prints it: date -Is (2026-12-06T17:54:43+09:00, Z for UTC, a fraction
// after . or ,), date --rfc-3339=seconds (2026-12-06 17:54:43+09:00), or
// date in the C locale with UTC, GMT or a numeric offset (Sun Dec  6
// 08:54:43 UTC 2026). Snapshot N (from 1) gives sN.time, the instant as
// seconds since 1970-01-01T00:00:00Z (unit s, Raw the timestamp as
// written), and its rows' readings keyed sN.<row>.<column>. A time
// without a zone (date +%FT%T, or a zone abbreviation such as KST, which
// names no offset) is an error: two snapshots' distance, the time
// series' x, would depend on a zone the file does not state. In a file
// with timestamp lines, a table before the first is an error.

var (
	stampISO = regexp.MustCompile(`^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,9}))?(Z|[+-]\d\d(?::?\d\d)?)?$`)
	stampC   = regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}(\d{1,2}) (\d\d):(\d\d):(\d\d) (\S+) (\d{4})$`)
	stampTZ  = regexp.MustCompile(`^[+-]\d\d(?:\d\d)?$`)
)

var stampMonths = map[string]int{"Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6, "Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12}

// parseStamp reads a timestamp line's text t (spaces trimmed). It
// reports whether t has the shape of one; err is set when it has but
// names no offset or no valid date.
func parseStamp(t string) (decimal.Decimal, bool, error) {
	var y, mo, d, h, mi, s int
	var frac, zone string
	atoi := func(x string) int { n, _ := strconv.Atoi(x); return n }
	if m := stampISO.FindStringSubmatch(t); m != nil {
		y, mo, d, h, mi, s = atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6])
		frac, zone = m[7], m[8]
		if zone == "" {
			return decimal.Decimal{}, true, fmt.Errorf("timestamp %q has no time zone; expected an offset as date -Is writes it (2026-12-06T17:54:43+09:00, or Z)", t)
		}
	} else if m := stampC.FindStringSubmatch(t); m != nil {
		y, mo, d, h, mi, s = atoi(m[7]), stampMonths[m[1]], atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5])
		switch zone = m[6]; {
		case zone == "UTC" || zone == "GMT":
			zone = "Z"
		case stampTZ.MatchString(zone):
		default:
			return decimal.Decimal{}, true, fmt.Errorf("timestamp %q: time zone %s names no offset; expected date -Is (2026-12-06T17:54:43+09:00), date -u (UTC) or a numeric offset", t, zone)
		}
	} else {
		return decimal.Decimal{}, false, nil
	}
	at := time.Date(y, time.Month(mo), d, h, mi, min(s, 59), 0, time.UTC)
	if at.Year() != y || int(at.Month()) != mo || at.Day() != d || h > 23 || mi > 59 || s > 60 {
		return decimal.Decimal{}, true, fmt.Errorf("timestamp %q is not a valid date and time; expected YYYY-MM-DD hh:mm:ss", t)
	}
	sec := at.Unix() + int64(s-min(s, 59)) // a leap second, 60, as date writes it
	if zone != "Z" {
		sign := int64(1)
		if zone[0] == '-' {
			sign = -1
		}
		z := strings.ReplaceAll(zone[1:], ":", "")
		off := int64(atoi(z[:2])) * 3600
		if len(z) == 4 {
			off += int64(atoi(z[2:])) * 60
		}
		if off >= 24*3600 || len(z) == 4 && atoi(z[2:]) > 59 {
			return decimal.Decimal{}, true, fmt.Errorf("timestamp %q: offset %s is out of range; expected ±hh:mm below 24 hours", t, zone)
		}
		sec -= sign * off
	}
	v := decimal.NewFromInt(sec)
	if frac != "" {
		f, _ := decimal.NewFromString("0." + frac)
		v = v.Add(f)
	}
	return v, true, nil
}

// snapClock numbers the snapshots of a file with timestamp lines.
type snapClock struct {
	any bool // the file has a timestamp line
	n   int  // the current snapshot, 0 before the first
}

// newSnapClock looks for a timestamp line in src.
func newSnapClock(src []byte) *snapClock {
	for _, ln := range raw.SplitLines(src) {
		if _, ok, _ := parseStamp(strings.TrimSpace(string(src[ln.Start:ln.End]))); ok {
			return &snapClock{any: true}
		}
	}
	return &snapClock{}
}

// Stamp reads text (a line at byte offset start) when it is a timestamp
// line: it starts the next snapshot and records its time. It reports
// whether the line was one.
func (c *snapClock) Stamp(r *raw.Recorder, start int, text string) bool {
	if !c.any {
		return false
	}
	t := strings.TrimSpace(text)
	v, ok, err := parseStamp(t)
	if !ok {
		return false
	}
	off := start + strings.Index(text, t)
	c.n++
	if err != nil {
		r.Errorf(off, "%v", err)
		return true
	}
	r.Add(c.Prefix()+"time", off, t, v, "s")
	return true
}

// Prefix is the key prefix of the current snapshot's readings: "" in a
// file without timestamp lines, "sN." in one with them.
func (c *snapClock) Prefix() string {
	if !c.any {
		return ""
	}
	return "s" + strconv.Itoa(c.n) + "."
}

// Early reports a table at byte offset off before the first timestamp
// line of a file that has them, and whether it was one.
func (c *snapClock) Early(r *raw.Recorder, off int, what string) bool {
	if c.any && c.n == 0 {
		r.Errorf(off, "%s before the first timestamp line; expected each snapshot to start with one (date -Is)", what)
		return true
	}
	return false
}
