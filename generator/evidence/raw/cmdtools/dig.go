package cmdtools

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The dig output reader ("dig", ReadDig). The conventions of every
// lab-format reader are in readings.go.

// The dig lines ReadDig reads, and the class, type and TTL fields of a
// resource record.
var (
	digQueryTime = regexp.MustCompile(`^;; Query time: (\d+) (msec|usec)`)
	digMsgSize   = regexp.MustCompile(`^;; MSG SIZE\s+rcvd: (\d+)`)
	digSection   = regexp.MustCompile(`^;; ([A-Z]+) (?:PSEUDO)?SECTION:`)
	digFlags     = regexp.MustCompile(`\b(QUERY|ANSWER|AUTHORITY|ADDITIONAL): (\d+)`)
	digClass     = regexp.MustCompile(`^(?:IN|CH|HS|CS|NONE|ANY|CLASS\d+)$`)
	digType      = regexp.MustCompile(`^[A-Z][A-Z0-9-]*$`)
	digTTL       = regexp.MustCompile(`^\d+$`)
)

// ReadDig reads dig output; format "dig". Readings:
//
//	;; Query time: 4 msec                    query_time_ms ("usec": query_time_us)
//	;; MSG SIZE  rcvd: 165                   msg_size (bytes)
//	;; flags: …; QUERY: 1, ANSWER: 3, …      query_count, answer_count,
//	                                         authority_count, additional_count
//	name.  10  IN  A  192.168.29.76          answer.<name>.<TYPE>.ttl (seconds), name
//	                                         without its final "." ("." itself is
//	                                         "root"): answer.redis.default.service.nomad.A.ttl
//	name.  8  IN  SRV  10 5 25395 target.    ….SRV.priority, .weight, .port
//	name.  5  IN  MX  10 mail.               ….MX.preference
//	name.  5  IN  SOA  ns. host. 1 3600 …    ….SOA.serial, .refresh, .retry, .expire,
//	                                         .minimum (the last four in seconds)
//	; EDNS: version: 0, flags:; udp: 1232    edns_version, edns_udp_size (bytes)
//
// Records under ";; AUTHORITY SECTION:" and ";; ADDITIONAL SECTION:" are
// keyed authority.… and additional.…; records outside any section (dig
// +noall +answer) count as answers when they name a class (IN). A name
// repeated with the same type is numbered: …A.ttl, …A.ttl#2, …; several
// dig runs in one file likewise number query_time_ms#2 and so on.
// Addresses, names and other record data are not numbers. Comments (";"), the
// question section and commands are skipped. A file with none of these
// lines is an error.
func ReadDig(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceDig)
	if errs != nil {
		return nil, errs
	}
	section := ""
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		if strings.TrimSpace(text) == "" {
			section = ""
			continue
		}
		if m := digQueryTime.FindStringSubmatchIndex(text); m != nil {
			key := "query_time_ms"
			if text[m[4]:m[5]] == "usec" {
				key = "query_time_us"
			}
			r.AddNum(key, ln.Start+m[2], text[m[2]:m[3]], "")
			continue
		}
		if m := digMsgSize.FindStringSubmatchIndex(text); m != nil {
			r.AddNum("msg_size", ln.Start+m[2], text[m[2]:m[3]], "")
			continue
		}
		if m := digSection.FindStringSubmatch(text); m != nil {
			section = strings.ToLower(m[1])
			continue
		}
		if strings.HasPrefix(text, ";; flags:") {
			for _, m := range digFlags.FindAllStringSubmatchIndex(text, -1) {
				r.AddNum(strings.ToLower(text[m[2]:m[3]])+"_count", ln.Start+m[4], text[m[4]:m[5]], "")
			}
			continue
		}
		if m := digEDNS.FindStringSubmatchIndex(text); m != nil {
			r.AddNum("edns_version", ln.Start+m[2], text[m[2]:m[3]], "")
			r.AddNum("edns_udp_size", ln.Start+m[4], text[m[4]:m[5]], "")
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(text), ";") {
			continue
		}
		switch section {
		case "", "answer", "authority", "additional":
		default:
			continue
		}
		digRecord(r, section, ln.Start, text)
	}
	if r.Out.Len() == 0 && len(r.Errs) == 0 {
		r.Errorf(0, "no dig output; expected \";; Query time: N msec\", \";; MSG SIZE  rcvd: N\" or answer records \"name. TTL IN TYPE data\"")
	}
	r.AttachUnits(digUnit)
	return r.Result()
}

// digRecord reads the TTL of a resource record line "name TTL [class]
// TYPE data" starting at byte offset base.
func digRecord(r *raw.Recorder, section string, base int, text string) {
	type field struct {
		off int
		tok string
	}
	var f []field
	for i := 0; i < len(text); {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		a := i
		for i < len(text) && text[i] != ' ' && text[i] != '\t' {
			i++
		}
		f = append(f, field{a, text[a:i]})
	}
	if len(f) < 3 || !digTTL.MatchString(f[1].tok) {
		return
	}
	typ, data := "", 0
	switch {
	case digClass.MatchString(f[2].tok) && len(f) >= 4 && digType.MatchString(f[3].tok):
		typ, data = f[3].tok, 4
	case section != "" && digType.MatchString(f[2].tok) && !digClass.MatchString(f[2].tok):
		typ, data = f[2].tok, 3
	default:
		return
	}
	if section == "" {
		section = "answer"
	}
	name := strings.TrimSuffix(f[0].tok, ".")
	if name == "" {
		name = "root"
	}
	key := section + "." + name + "." + typ
	r.AddNum(key+".ttl", base+f[1].off, f[1].tok, "")
	fields, ok := digRdataFields[typ]
	if !ok {
		return
	}
	for i, field := range fields {
		if field == "" || data+i >= len(f) {
			continue
		}
		if !r.AddNum(key+"."+field, base+f[data+i].off, f[data+i].tok, "") {
			r.Errorf(base+f[data+i].off, "%s record %s: %s %q is not a number; expected an unsigned integer", typ, name, field, f[data+i].tok)
		}
	}
}

// digRdataFields names the numeric fields of record data (RFC 1035, RFC
// 2782), in order; "" is a name field.
var digRdataFields = map[string][]string{
	"SRV": {"priority", "weight", "port"},
	"MX":  {"preference"},
	"SOA": {"", "", "serial", "refresh", "retry", "expire", "minimum"},
}

// digEDNS is the EDNS pseudo-record line: its version and UDP payload
// size.
var digEDNS = regexp.MustCompile(`^; EDNS: version: (\d+), flags:[^;]*; udp: (\d+)`)

// digUnit: dig's query time is in msec or usec, the message size in
// bytes, a record's TTL in seconds.
func digUnit(key string) string {
	switch {
	case strings.HasPrefix(key, "query_time_ms"):
		return "ms"
	case strings.HasPrefix(key, "query_time_us"):
		return "us"
	case key == "msg_size":
		return "B"
	case strings.HasSuffix(key, ".ttl"), strings.Contains(key, ".SOA.") && !strings.HasSuffix(key, ".serial"):
		return "s"
	case key == "edns_udp_size":
		return "B"
	}
	return ""
}
