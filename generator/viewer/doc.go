// Package viewer makes the evidence viewer's HTML: a raw file's lines
// split into windows, highlighted (chroma, without its timeouts), each
// cited or unread token marked, the claims and sets the popovers show,
// and the derivation of a derived value (also shown by evdoc lsp's
// hover, ShowBinding).
package viewer
