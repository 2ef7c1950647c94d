package formats

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/cmdtools"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/envoy"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/gobench"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/loadtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"
)

// Names lists the format names a [[read]] entry accepts, sorted.
func Names() []string {
	var out []string
	for name := range readers() {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// ReaderFor returns the reader of a format name, or an error listing the
// known formats.
func ReaderFor(format string) (raw.Reader, error) {
	read, err := ListReaderFor(format)
	if err != nil {
		return nil, err
	}
	return raw.AsReader(read), nil
}

// ListReaderFor is ReaderFor giving the readings as raw.Readings. The
// reader is wrapped in the sweep for unread numbers (raw.Account).
func ListReaderFor(format string) (raw.ListReader, error) {
	if r, ok := readers()[format]; ok {
		if ownAccounting[format] {
			return r, nil
		}
		return raw.Account(format, r, DataLines(format), formatHint(format)), nil
	}
	return nil, fmt.Errorf("unknown format %q; expected one of %s", format, strings.Join(Names(), ", "))
}

// readers is built per call: no package-level registry.
func readers() map[string]raw.ListReader {
	return map[string]raw.ListReader{
		"markdown-tables": labreport.ReadTablesAsReadings,
		"transcript":      labreport.ReadTranscriptAsReadings,

		"envoy-stats":         envoy.ReadEnvoyStats,
		"envoy-stats-json":    envoy.ReadEnvoyStatsJSON,
		"envoy-clusters":      envoy.ReadEnvoyClusters,
		"envoy-clusters-json": envoy.ReadEnvoyClustersJSON,
		"fortio-json":         loadtest.ReadFortioJSON,
		"fortio-text":         loadtest.ReadFortioText,
		"curl-writeout":       cmdtools.ReadCurlWriteout,
		"csv":                 structured.ReadCSV,
		"json":                structured.ReadJSON,
		"istioctl-table":      cmdtools.ReadIstioctlTable,
		"dig":                 cmdtools.ReadDig,
		"prometheus":          structured.ReadPrometheus,
		"vegeta":              loadtest.ReadVegeta,
		"wrk":                 loadtest.ReadWrk,
		"hey":                 loadtest.ReadHey,
		"oha":                 loadtest.ReadOha,
		"k6":                  loadtest.ReadK6,
		"ghz":                 loadtest.ReadGhz,
		"go-bench":            gobench.ReadGoBench,
		"benchstat":           gobench.ReadBenchstat,
		"time":                cmdtools.ReadTime,
		"kubectl":             cmdtools.ReadKubectl,
		"docker-stats":        cmdtools.ReadDockerStats,
		"envoy-access-log":    structured.ReadAccessLog,
		"ping":                cmdtools.ReadPing,
		"mtr":                 cmdtools.ReadMtr,
		"pattern":             structured.ReadPattern,
	}
}

// DataLines is the definition of the data lines of format that the sweep
// for unread numbers reads (raw.Account): its lines but comments, echoed
// commands, log lines and headers whose numbers name things, and those a
// pattern entry's skip matches, with the text inside them that is not
// data (URLs, JSON string literals) blanked.
func DataLines(format string) raw.DataLines {
	return func(src []byte, opt raw.ReadOptions) ([]raw.LineSpan, []byte) {
		lines, view := dataLines(format, src)
		if format == "pattern" && opt.Skip != "" {
			lines = skipLines(src, lines, opt.Skip)
		}
		return lines, view
	}
}

// unknown is the diagnostic of a read naming no format.
func unknown(file string, err error) diag.List {
	return diag.List{diag.Errorf(diag.Position{File: file}, diag.ValuesFormat, "%v", err)}
}

// ReadWindowed is raw.ReadWindowed with the reader of format.
func ReadWindowed(format, file string, src []byte, opt raw.ReadOptions, window int, keep func(raw.Reading) bool, emit func(raw.Reading)) diag.List {
	read, err := ListReaderFor(format)
	if err != nil {
		return unknown(file, err)
	}
	return raw.ReadWindowed(read, format, file, src, opt, window, keep, emit)
}

// ReadKept is raw.ReadKept with the reader of format.
func ReadKept(format, file string, src []byte, opt raw.ReadOptions, window int, keep func(raw.Reading) bool) ([]raw.Reading, diag.List) {
	read, err := ListReaderFor(format)
	if err != nil {
		return nil, unknown(file, err)
	}
	return raw.ReadKept(read, format, file, src, opt, window, keep)
}

// ReadList is raw.ReadList with the reader of format.
func ReadList(format, file string, src []byte, opt raw.ReadOptions, window int, keep func(raw.Reading) bool) (*raw.Readings, diag.List) {
	read, err := ListReaderFor(format)
	if err != nil {
		return nil, unknown(file, err)
	}
	return raw.ReadList(read, format, file, src, opt, window, keep)
}

// ReadWindowedFrom is raw.ReadWindowedFrom with the reader of format. An
// unknown format is a diagnostic after r is read, as for a known format
// read whole.
func ReadWindowedFrom(format, file string, r io.Reader, opt raw.ReadOptions, window int, keep func(raw.Reading) bool, emit func(raw.Reading)) (diag.List, error) {
	read, err := ListReaderFor(format)
	if err != nil {
		if _, rerr := io.ReadAll(r); rerr != nil {
			return nil, rerr
		}
		return unknown(file, err), nil
	}
	return raw.ReadWindowedFrom(read, format, file, r, opt, window, keep, emit)
}
