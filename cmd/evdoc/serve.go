package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/serve"
)

func newServeCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var hugoFlag, bind, baseURL string
	var port int
	var strict bool
	var debounce time.Duration
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the site with Hugo's live reload; re-check every saved page or evidence file",
		Long: "serve checks the site like check, stages it as build does (generated pages, evidence viewer,\n" +
			"figures, data) and runs Hugo's server on the stage with live reload. It watches content/,\n" +
			"evidence/, figures/, layouts/, i18n/, static/, assets/, data/, themes/ and the configuration;\n" +
			"a burst of saves is re-checked once: a page with its translations, an evidence set with\n" +
			"the pages that bind it (claims, evtables, figures), a figure spec with the pages showing\n" +
			"it, the configuration with every page. The findings in scope are printed as check prints\n" +
			"them, and every page shows the site's findings in a banner (the layouts' partial\n" +
			"evdoc/serve-banner.html reads data/evdoc/serve.json, which build never writes). Ctrl-C or\n" +
			"SIGTERM stops Hugo's whole process group and removes serve's directory under .evdoc/.\n" +
			"serve runs while findings exist (Hugo's server is started again after a save when it stopped);\n" +
			"under --strict warnings count as failures in the banner\n" +
			"and the summary, as in check --strict.\n\n" + hugoLookupHelp,
		Example: "  evdoc serve                          # http://localhost:1313/, Ctrl-C stops\n" +
			"  evdoc serve --port 8080 --bind 0.0.0.0 --base-url http://lab-host:8080/\n" +
			"  evdoc serve --strict                 # warnings shown as failures, as in CI\n" +
			"  EVDOC_HUGO=/usr/local/bin/hugo evdoc serve --root ~/lab-site",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if port < 0 || port > 65535 {
				return &exitError{2, fmt.Errorf("--port %d: expected a TCP port from 1 to 65535 (0: Hugo's default, 1313)", port)}
			}
			hugo, err := findHugo(cmd.Context(), hugoFlag, *root, osHugoEnv(stderr))
			if err != nil {
				return errNoHugo(err)
			}
			err = serve.Run(cmd.Context(), serve.Options{
				Root: *root, Hugo: hugo, Bind: bind, Port: port, BaseURL: baseURL, Strict: strict, Debounce: debounce,
				Rechecker: &serve.IncrementalRechecker{Root: *root, Load: opts.load(), Check: opts.check},
				Out:       stdout, Log: stderr,
			})
			if err != nil {
				return &exitError{2, err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&hugoFlag, "hugo", "", "Hugo binary to run (overrides EVDOC_HUGO; \"pinned\": the pinned Hugo, see the lookup order above)")
	cmd.Flags().IntVar(&port, "port", 1313, "port Hugo's server listens on (Hugo picks a free one when it is taken)")
	cmd.Flags().StringVar(&bind, "bind", "127.0.0.1", "interface Hugo's server binds to (0.0.0.0: every interface)")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "base URL of the served site (Hugo's --baseURL; default http://localhost:PORT/)")
	cmd.Flags().BoolVar(&strict, "strict", false, "count warnings as failures in the banner and the summary, as check --strict does")
	cmd.Flags().DurationVar(&debounce, "debounce", 150*time.Millisecond, "quiet time that ends a burst of saves before the re-check")
	return cmd
}
