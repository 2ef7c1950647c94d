package checker

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// checkEvidencePageNames reports raw evidence files whose pages would
// overwrite another page of their set: two files that name alike
// ("r.txt" and "r-txt", "R.txt" and "r.txt"), a file named like the
// manifest's page ("evidence-toml") or like the set's own page
// ("_index", "index"). Without it one page silently replaces the other
// and a claim links to a page showing a different file. Each collision
// is reported at the manifest line that names the later file.
func checkEvidencePageNames(s *project.Site) diag.List {
	var ds diag.List
	for _, set := range s.Store.Sets {
		mfile := path.Join(set.Dir, manifest.FileName)
		msrc, _ := safefile.ReadFile(s.Root, mfile, safefile.SpecMaxSize)
		ix := diag.NewLineIndex(mfile, msrc)
		// at is the range of the file's name in the manifest, or its
		// first line when the manifest does not name it.
		at := func(name string) (diag.Position, diag.Position) {
			if i := strings.Index(string(msrc), strconv.Quote(name)); i >= 0 {
				return ix.Span(i, i+len(strconv.Quote(name)))
			}
			return ix.Pos(0), ix.LineEnd(0)
		}
		taken := map[string]string{
			"_index": "the set's own page",
			"index":  "the set's own page",
		}
		taken[hugoconf.EvidencePageName(mfile)] = mfile
		for _, f := range set.Files {
			name := hugoconf.EvidencePageName(f)
			if other, ok := taken[name]; ok {
				pos, end := at(strings.TrimPrefix(f, set.Dir+"/"))
				ds = append(ds, diag.Errorf(pos, diag.EvidencePageName,
					"%s would be published as the page %s, which is already %s; expected file names that stay distinct when dots become dashes (rename the file)",
					f, "/"+hugoconf.EvidencePageDir(f), other).Spanning(end))
				continue
			}
			taken[name] = f
		}
		// The viewer's later windows are NAME-p2, NAME-p3…: a file named
		// like one of them would take its place.
		for _, f := range set.Files {
			name := hugoconf.EvidencePageName(f)
			if m := windowSuffix.FindStringIndex(name); m != nil {
				if other, ok := taken[name[:m[0]]]; ok && other != f {
					pos, end := at(strings.TrimPrefix(f, set.Dir+"/"))
					ds = append(ds, diag.Errorf(pos, diag.EvidencePageName,
						"%s would be published as /%s, the name of a later page of %s; expected a file name that does not end in -p and a number after another file's name",
						f, hugoconf.EvidencePageDir(f), other).Spanning(end))
				}
			}
		}
	}
	return ds
}

// windowSuffix matches the suffix of a viewer window page name ("-p2").
var windowSuffix = regexp.MustCompile(`-p[0-9]+$`)
