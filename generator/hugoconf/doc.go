// Package hugoconf emulates Hugo's configuration and URLs: it reads
// hugo.toml (or the other root files and config/) with positions,
// refuses paths outside the project and a widened security policy
// (confine.go), derives the languages, content directories, goldmark
// options, permalinks and edit links, and resolves a link or a page path
// the way Hugo's GetPage and the render hook do.
package hugoconf
