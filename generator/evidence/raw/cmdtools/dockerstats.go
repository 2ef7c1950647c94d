package cmdtools

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The docker stats reader ("docker-stats", ReadDockerStats). The
// conventions of every lab-format reader are in readings.go; repeated
// snapshots with timestamp lines in snapshots.go.

// dockerColumn is what a column of docker stats' table (or a member of
// its --format '{{json .}}' line) holds.
type dockerColumn struct {
	keys  []string // the reading keys: one, or two for an "A / B" pair
	units map[string]dockerUnit
	name  bool // the column names the row (NAME, CONTAINER, CONTAINER ID)
}

// dockerUnit is a unit docker prints: the canonical unit and a factor
// the number is multiplied by (PiB and PB have no canonical unit of
// their own).
type dockerUnit struct {
	unit   string
	factor int64
}

// docker prints memory with go-units' BytesSize (binary: 5.629MiB),
// network and block I/O with HumanSizeWithPrecision (decimal, lower-case
// k: 1.45kB), percentages with %.2f%%, PIDs as an integer.
var (
	dockerBinary = map[string]dockerUnit{"B": {"B", 1}, "KiB": {"KiB", 1}, "MiB": {"MiB", 1}, "GiB": {"GiB", 1}, "TiB": {"TiB", 1},
		"PiB": {"TiB", 1 << 10}, "EiB": {"TiB", 1 << 20}}
	dockerDecimal = map[string]dockerUnit{"B": {"B", 1}, "kB": {"KB", 1}, "MB": {"MB", 1}, "GB": {"GB", 1}, "TB": {"TB", 1},
		"PB": {"TB", 1000}, "EB": {"TB", 1000000}}
	dockerPercent = map[string]dockerUnit{"%": {"%", 1}}
	dockerCount   = map[string]dockerUnit{"": {"", 1}}
)

// dockerTable maps a table header to its column.
var dockerTable = map[string]dockerColumn{
	"CONTAINER ID": {name: true}, "CONTAINER": {name: true}, "NAME": {name: true},
	"CPU %":             {keys: []string{"cpu"}, units: dockerPercent},
	"MEM %":             {keys: []string{"mem"}, units: dockerPercent},
	"MEM USAGE / LIMIT": {keys: []string{"mem_usage", "mem_limit"}, units: dockerBinary},
	"PRIV WORKING SET":  {keys: []string{"mem_usage"}, units: dockerBinary},
	"NET I/O":           {keys: []string{"net_rx", "net_tx"}, units: dockerDecimal},
	"BLOCK I/O":         {keys: []string{"block_read", "block_write"}, units: dockerDecimal},
	"PIDS":              {keys: []string{"pids"}, units: dockerCount},
}

// dockerJSONMembers maps a member of a --format '{{json .}}' line to the
// table column it stands for.
var dockerJSONMembers = map[string]string{
	"ID": "CONTAINER ID", "Container": "CONTAINER", "Name": "NAME", "CPUPerc": "CPU %", "MemPerc": "MEM %",
	"MemUsage": "MEM USAGE / LIMIT", "NetIO": "NET I/O", "BlockIO": "BLOCK I/O", "PIDs": "PIDS",
}

// dockerCells splits a table line at runs of two or more spaces (docker's
// tabwriter pads columns with three; a cell holds single spaces: "MEM
// USAGE / LIMIT", "5.6MiB / 1.9GiB").
var dockerCells = regexp.MustCompile(`\S+(?: \S+)*`)

// dockerFrame is what the streaming docker stats prints before each
// frame's header: the terminal's erase-display and cursor-home escapes.
var dockerFrame = regexp.MustCompile(`^(?:\x1b\[[0-9;]*[HJ])+`)

// dockerHeader is docker stats' table header: a name column first.
var dockerHeader = regexp.MustCompile(`^(?:CONTAINER(?: ID)?|NAME)(?:\s{2,}\S|\s*$)`)

// ReadDockerStats reads docker stats output; format "docker-stats". The
// table docker stats --no-stream prints (and each frame of docker
// stats, several in one file):
//
//	CONTAINER ID   NAME    CPU %     MEM USAGE / LIMIT     MEM %     NET I/O         BLOCK I/O    PIDS
//	b95a83497c91   web     0.28%     5.629MiB / 1.952GiB   0.28%     1.45kB / 0B     147kB / 0B   9
//
// gives, per row named by its NAME (else CONTAINER, else CONTAINER ID):
// web.cpu (0.28 %), web.mem_usage (5.629 MiB) and web.mem_limit, web.mem
// (%), web.net_rx and web.net_tx (kB is KB: 1000 bytes), web.block_read
// and web.block_write, web.pids; Windows' PRIV WORKING SET is
// .mem_usage. Lines of docker stats --no-stream --format '{{json .}}'
// ({"BlockIO":"0B / 0B","CPUPerc":"0.00%","MemUsage":"5.6MiB /
// 1.9GiB","Name":"web",…}) give the same keys. Each unit must be the
// one docker prints in its column: memory binary (B, KiB, MiB, GiB,
// TiB), I/O decimal (B, kB, MB, GB, TB), CPU and memory percent with
// %; any other unit text (KB, MB in the memory column, a percent
// without %) is an error, never a number read in a guessed unit.
// docker's "--" (a container whose stats it could not read) gives no
// reading. An unknown column or JSON member is an error.
//
// Repeated snapshots each start with a timestamp line (while true; do
// date -Is; docker stats --no-stream; sleep 10; done): snapshot N gives
// sN.time (seconds since the Unix epoch, unit s) and sN.<row>.<column>
// (see snapshots.go). Without timestamp lines a repeated row's keys
// are numbered (#2).
func ReadDockerStats(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceDockerStats)
	if errs != nil {
		return nil, errs
	}
	clock := newSnapClock(src)
	var cols []dockerColumn
	var names []string
	rows := 0
	refused := false // the rows of a table whose header is in error
	for start, text := range raw.OutputLines(src) {
		if m := dockerFrame.FindString(text); m != "" {
			// a frame of the streaming docker stats: the terminal is
			// cleared before its header
			start, text = start+len(m), text[len(m):]
		}
		t := strings.TrimSpace(text)
		if t == "" || clock.Stamp(r, start, text) {
			cols, refused = nil, false
			continue
		}
		lead := start + strings.Index(text, t)
		switch {
		case strings.HasPrefix(t, "{"):
			if !clock.Early(r, lead, "docker stats line") {
				rows++
				dockerJSON(r, clock.Prefix(), lead, lead+len(t))
			}
		case dockerHeader.MatchString(t):
			cols, names, refused = nil, nil, true
			if clock.Early(r, lead, "table") {
				continue
			}
			for _, f := range dockerCells.FindAllStringIndex(text, -1) {
				h := text[f[0]:f[1]]
				c, ok := dockerTable[h]
				if !ok {
					r.Errorf(start+f[0], "column %q is not one docker stats prints; expected CONTAINER ID, NAME, CPU %%, MEM USAGE / LIMIT, MEM %%, NET I/O, BLOCK I/O, PIDS", h)
					cols = nil
					break
				}
				cols, names = append(cols, c), append(names, h)
			}
			refused = cols == nil
		case refused:
		case cols == nil:
			r.Errorf(lead, "%q is not a docker stats line; expected a header (CONTAINER ID  NAME  CPU %% …), a row after it, a {\"Name\":…} JSON line or a timestamp line", raw.FirstField(t))
		default:
			cells := dockerCells.FindAllStringIndex(text, -1)
			if len(cells) != len(cols) {
				r.Errorf(lead, "row has %d cells but the header %d; expected one cell per column, separated by two or more spaces", len(cells), len(cols))
				continue
			}
			rows++
			row := ""
			for i, c := range cols {
				if c.name && (row == "" || names[i] == "NAME") {
					row = text[cells[i][0]:cells[i][1]]
				}
			}
			for i, c := range cols {
				if !c.name {
					dockerCell(r, clock.Prefix()+row, names[i], c, start+cells[i][0], text[cells[i][0]:cells[i][1]])
				}
			}
		}
	}
	if rows == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no docker stats rows; expected the table docker stats --no-stream prints (CONTAINER ID  NAME  CPU %% …) or its --format '{{json .}}' lines")
	}
	return r.Result()
}

// dockerJSON reads one --format '{{json .}}' line, src[start:end].
func dockerJSON(r *raw.Recorder, prefix string, start, end int) {
	root, errs := jsontree.ParseFile(r.Index, r.Src, start, end, r.Rule)
	if errs != nil {
		r.Errs = append(r.Errs, errs...)
		return
	}
	if root.Kind != jsontree.Object {
		r.Errorf(start, "expected a JSON object, one per container, as docker stats --format '{{json .}}' prints")
		return
	}
	row := ""
	for _, m := range root.Members {
		c := dockerTable[dockerJSONMembers[m.Key]]
		if c.name && m.Val.Kind == jsontree.String && (row == "" || m.Key == "Name") {
			row = m.Val.Str
		}
	}
	if row == "" {
		r.Errorf(start, "a docker stats line without a Name, Container or ID; expected --format '{{json .}}' (every member)")
		return
	}
	for _, m := range root.Members {
		col, ok := dockerJSONMembers[m.Key]
		c := dockerTable[col]
		switch {
		case !ok:
			r.Errorf(m.Val.Start, "member %q is not one docker stats prints; expected BlockIO, CPUPerc, Container, ID, MemPerc, MemUsage, Name, NetIO, PIDs", m.Key)
		case c.name:
		case m.Val.Kind != jsontree.String || string(r.Src[m.Val.Start+1:m.Val.End-1]) != m.Val.Str:
			r.Errorf(m.Val.Start, "%s is not a string as docker prints it; expected \"0.28%%\", \"5.6MiB / 1.9GiB\"", m.Key)
		default:
			dockerCell(r, prefix+row, col, c, m.Val.Start+1, m.Val.Str)
		}
	}
}

// dockerCell reads one cell v (at byte offset off) of column c, named
// col, in row key.
func dockerCell(r *raw.Recorder, key, col string, c dockerColumn, off int, v string) {
	if v == "--" || v == "-- / --" {
		return // docker could not read the container's stats
	}
	parts := []string{v}
	if len(c.keys) == 2 {
		a, b, ok := strings.Cut(v, " / ")
		if !ok {
			r.Errorf(off, "%s %q: expected two values \"A / B\" as docker prints them (1.5GiB / 7.7GiB)", col, v)
			return
		}
		parts = []string{a, b}
	}
	at := off
	for i, p := range parts {
		if !dockerValue(r, key+"."+c.keys[i], col, at, p, c.units) {
			return
		}
		at += len(p) + len(" / ")
	}
}

// dockerValue records the token tok (at off) of column col: a number and
// one of units, glued.
func dockerValue(r *raw.Recorder, key, col string, off int, tok string, units map[string]dockerUnit) bool {
	num := raw.NumberPrefix.FindString(tok)
	var v decimal.Decimal
	ok := num != "" && !strings.HasPrefix(num, "+") && !strings.HasPrefix(num, "-")
	if ok {
		v, ok = raw.ParseDecimal(num)
	}
	if !ok {
		r.Errorf(off, "%s %q is not a number as docker prints it; expected %s", col, tok, dockerExpect(units))
		return false
	}
	u, known := units[tok[len(num):]]
	if !known {
		r.Errorf(off+len(num), "unit %q of %s %q is not one docker prints there; expected %s", tok[len(num):], col, tok, dockerExpect(units))
		return false
	}
	r.Add(key, off, tok, v.Mul(decimal.NewFromInt(u.factor)), u.unit)
	return true
}

// dockerExpect describes the units docker prints in a column.
func dockerExpect(units map[string]dockerUnit) string {
	switch {
	case units["kB"].unit != "":
		return "a decimal size: B, kB, MB, GB, TB (1.45kB)"
	case units["MiB"].unit != "":
		return "a binary size: B, KiB, MiB, GiB, TiB (5.629MiB)"
	case units["%"].unit != "":
		return "a percent with % (0.28%)"
	}
	return "an integer (9)"
}
