package main

import (
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/lsp"
)

func newLSPCmd(root *string, opts *globalOptions, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server for claims over stdio (diagnostics, completion, hover, definitions, fixes)",
		Long: "lsp runs a Language Server Protocol server on standard input and output, for an editor\n" +
			"to start (docs/guide/editor.md shows Neovim's and VS Code's configuration). Open pages\n" +
			"are judged as typed, from the unsaved buffer, with the findings evdoc check prints; an\n" +
			"evidence file saved judges again the open pages citing it. It completes references\n" +
			"after ev:, explains a claim on hover, goes from a claim to its raw line and from a raw\n" +
			"line to the claims citing it, and offers evdoc fix's rewrite, the missing translation's\n" +
			"claim and an exemption as code actions. The project is --root when given, else the\n" +
			"editor's workspace root. Exit status: 0 after shutdown and exit, 1 after exit without\n" +
			"shutdown, 2 when the stream fails.",
		Example: "  evdoc lsp                 # started by the editor, not by hand",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r := ""
			if cmd.Flags().Changed("root") {
				r = *root
			}
			srv := lsp.New(lsp.Options{Root: r, Load: opts.load(), Check: opts.check, Log: stderr, Version: evdocVersion()})
			err := srv.Serve(cmd.Context(), stdio{})
			if errors.Is(err, lsp.ErrNoShutdown) {
				return &exitError{1, nil}
			}
			if err != nil && cmd.Context().Err() == nil {
				return &exitError{2, err}
			}
			return nil
		},
	}
	opts.addJudgeFlags(cmd, root)
	return cmd
}

// stdio is the editor's end of the protocol: standard input and output.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }
