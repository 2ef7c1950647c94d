// Package project loads an evdoc project as Hugo would read it: the
// configuration (package hugoconf), the content pages of every language
// with their load findings (front matter, claim syntax, raw HTML,
// shortcodes), the evidence store, figure specs, the glossary and the
// translation pairs; and what the loaded pages mean to Hugo (the pages a
// link can name, cascades, main sections, fallbacks).
//
// Load reads the project (pages parsed on a pool of workers, RunWorkers);
// a Site is what the checker, the staging and the verification read.
package project
