// Package verify checks the site Hugo built against what was staged:
// every claim and evidence window present where it was written, links
// inside the site naming files that exist, the stylesheets of pages
// showing claims, no #ZgotmplZ; a claim missing from a page is explained
// by the shortcode or layout that dropped it (missingclaims.go).
package verify
