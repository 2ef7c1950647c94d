// Command benchsite writes a synthetic evdoc project for benchmarks
// (issue 14): hugo.toml like the reference site's, the reference layouts,
// i18n strings and static files, N Korean pages under content/ko/bench
// with their Japanese translations under content/ja/bench, and one
// evidence set per 50 pages mixing reader formats (a Markdown report
// table, a key=value transcript, a CSV file read by the csv reader) with
// derived delta and percent values.
//
// Pages are shaped like the reference Q&A: headings, tables, code blocks,
// bound claims of every kind (fractions, percentages, deltas, transitions,
// ranges, approximations) and exempt numbers in code. The output is a
// pure function of -pages and -seed: the same flags write the same bytes.
//
// Usage:
//
//	go run ./internal/benchsite -pages 500 -seed 1 -out /tmp/site
//
// -out must not exist or be empty; files are written under it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

func main() {
	pages := flag.Int("pages", 10, "number of Korean pages (each gets a Japanese translation)")
	seed := flag.Int64("seed", 1, "seed of the pseudo-random values")
	claims := flag.Int("claims", 480, "bound claims per page (rounded to whole sections)")
	perSet := flag.Int("pages-per-set", benchgen.DefaultPagesPerSet, "pages quoting one evidence set")
	out := flag.String("out", "", "output directory (must not exist or be empty)")
	flag.Parse()
	if *out == "" || *pages < 1 || *claims < 1 {
		fmt.Fprintln(os.Stderr, "usage: benchsite -pages N [-seed S] [-claims C] -out DIR (N ≥ 1, C ≥ 1)")
		os.Exit(2)
	}
	if ents, err := os.ReadDir(*out); err == nil && len(ents) > 0 {
		fmt.Fprintf(os.Stderr, "benchsite: %s is not empty\n", *out)
		os.Exit(2)
	}
	if err := benchgen.Write(*out, benchgen.Options{Pages: *pages, Seed: *seed, ClaimsPerPage: *claims, PagesPerSet: *perSet}); err != nil {
		fmt.Fprintln(os.Stderr, "benchsite:", err)
		os.Exit(1)
	}
}
