// Package staging writes the stage Hugo builds: the project's sources
// copied (regular files inside the project only), claim positions pinned,
// claim and set data, translation fallbacks, the evidence viewer's pages
// (package viewer's HTML) and the figures.
package staging
