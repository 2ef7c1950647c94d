package hugoconf

import (
	"path"
	"strings"
)

// EvidencePageName is the page name a raw evidence file is published
// under (the last segment of EvidencePageURL), as Hugo compares paths:
// lower case.
func EvidencePageName(file string) string {
	return strings.ToLower(strings.ReplaceAll(path.Base(file), ".", "-"))
}

// EvidencePageDir is the logical path of a raw file's first viewer page:
// "evidence/SET/report-md/".
func EvidencePageDir(file string) string {
	dir, base := path.Split(file)
	return dir + strings.ReplaceAll(base, ".", "-") + "/"
}
