package main

import (
	"fmt"
	"io"
	"time"

	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/serve"
	"github.com/spf13/cobra"
)

func newServeCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var hugoFlag, bind, baseURL string
	var port int
	var strict, verbose bool
	var debounce time.Duration
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the site with Hugo's live reload; re-check every saved page or evidence file",
		Long: "serve checks the site like check, stages it as build does (generated pages, evidence\n" +
			"viewer, figures, data) and runs Hugo's server on the stage with live reload.\n\n" +
			"It watches content/, evidence/, figures/, layouts/, themes/, i18n/, static/, assets/,\n" +
			"data/, archetypes/, config/ and the configuration files. A burst of saves is re-checked\n" +
			"once: a page with its translations; an evidence set with the pages that bind it (claims,\n" +
			"evtables, figures); a figure spec with the pages showing it; the configuration with every\n" +
			"page. The findings in scope are printed as check prints them, then a summary line, and\n" +
			"every served page shows the site's errors and warnings in a banner: the partial\n" +
			"evdoc/serve-banner.html (called by the reference baseof; a site with its own theme adds\n" +
			"{{ partial \"evdoc/serve-banner.html\" . }} after <body>) reads data/evdoc/serve.json,\n" +
			"which only serve writes, so a built site never shows it.\n\n" +
			"A --port that is in use is an error (exit 2) before anything is staged or started.\n" +
			"A multihost site (a language with its own baseURL) is served by Hugo's server directly,\n" +
			"one port per language from --port up, without serve's Host check in front of it.\n" +
			"serve keeps running while findings exist; when Hugo's server stops (a build error at its\n" +
			"start) it is started again after the next save. Under --strict warnings count as\n" +
			"failures in the banner and the summary, as in check --strict. Ctrl-C or SIGTERM stops\n" +
			"Hugo's whole process group and removes serve's directory under .evdoc/ (exit 130/143).\n\n" + hugoLookupHelp,
		Example: "  evdoc serve                          # http://localhost:1313/, Ctrl-C stops\n" +
			"  evdoc serve --port 8080 --bind 0.0.0.0 --base-url http://lab-host:8080/\n" +
			"  evdoc serve --strict                 # warnings shown as failures, as in CI\n" +
			"  EVDOC_HUGO=/usr/local/bin/hugo evdoc serve --root ~/lab-site",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if port < 0 || port > 65535 {
				return &exitError{2, fmt.Errorf("--port %d: expected a TCP port from 1 to 65535 (0: Hugo's default, 1313)", port)}
			}
			if !cmd.Flags().Changed("port") {
				port = 0 // Hugo's 1313, or a free port when that is taken
			}
			hugo, err := findHugo(cmd.Context(), hugoFlag, osHugoEnv(stderr))
			if err != nil {
				return errNoHugo(err)
			}
			err = serve.Run(cmd.Context(), serve.Options{
				Root: *root, Hugo: hugo, Bind: bind, Port: port, BaseURL: baseURL, Strict: strict, Debounce: debounce, Verbose: verbose,
				Rechecker: &serve.IncrementalRechecker{Root: *root, Load: lazyLoad(opts.load()), Check: opts.check},
				Out:       stdout, Log: stderr,
			})
			if err != nil {
				return &exitError{2, err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&hugoFlag, "hugo", "", "Hugo binary to run, a `PATH` (overrides EVDOC_HUGO; \"pinned\": the pinned Hugo, see the lookup order above)")
	cmd.Flags().IntVar(&port, "port", 1313, "`PORT` serve listens on (Hugo's server runs behind it); when not given, serve picks a free one if 1313 is taken; a given port that is taken is an error (exit 2)")
	cmd.Flags().StringVar(&bind, "bind", "127.0.0.1", "interface `ADDRESS` Hugo's server binds to (0.0.0.0: every interface)")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "base `URL` of the served site (Hugo's --baseURL; default http://localhost:PORT/)")
	cmd.Flags().BoolVar(&strict, "strict", false, "count warnings as failures in the banner and the summary, as check --strict does")
	cmd.Flags().DurationVar(&debounce, "debounce", serve.DefaultDebounce, "quiet time (a `DURATION`) that ends a burst of saves before the re-check")
	addVerboseFlag(cmd, &verbose, "also print each staging and the Hugo command line")
	opts.addJudgeFlags(cmd, root)
	return cmd
}

// lazyLoad returns o with lazy page loading (project.LoadOptions.Lazy), as
// serve loads the project: a page is parsed when it is judged, staged
// or scoped, and dropped afterwards.
func lazyLoad(o project.LoadOptions) project.LoadOptions {
	o.Lazy = true
	return o
}
