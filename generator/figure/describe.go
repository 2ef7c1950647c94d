package figure

import (
	"fmt"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// AltText returns the image alt text for lang: the spec's alt text (claim
// links reduced to their text) followed by the data the chart shows,
// generated from the evidence so it cannot disagree with the image.
func (s *Spec) AltText(st *evidence.Store, lang string) (string, error) {
	d, errs := s.data(st)
	if errs != nil {
		return "", errs
	}
	return strings.TrimSpace(Plain(s.Alt, lang)) + " " + s.describe(d, lang), nil
}

func (s *Spec) label(id, lang string) string {
	if t, ok := s.Legend[id]; ok && t[lang] != "" {
		return Plain(t, lang)
	}
	return id
}

// describe writes the chart's numbers as text.
func (s *Spec) describe(d *figData, lang string) string {
	var parts []string
	switch s.Kind {
	case KindTimeline:
		var snaps []string
		for j, sn := range s.Snapshots {
			snaps = append(snaps, fmt.Sprintf("%s %s s", strings.ToUpper(sn), signed(d.times[j])))
		}
		head := "(" + strings.Join(snaps, ", ") + ")"
		if s.Flip != "" {
			head += fmt.Sprintf(" %s %s s", Plain(s.FlipLabel, lang), signed(d.flip))
		}
		parts = append(parts, head)
		for i, pd := range d.panels {
			var cs []string
			for ci, row := range pd.deltas {
				var vs []string
				for _, v := range row {
					vs = append(vs, signed(v))
				}
				cs = append(cs, s.label(s.Counters[ci], lang)+" "+strings.Join(vs, ", "))
			}
			t := strings.Join(cs, "; ")
			if title := Plain(s.Panels[i].Title, lang); title != "" {
				t = title + ": " + t
			}
			parts = append(parts, t)
		}
	case KindBars:
		for i, pd := range d.panels {
			for gi, g := range pd.groups {
				var bs []string
				for bi, b := range g.bars {
					t := s.label(s.Panels[i].Groups[gi].Bars[bi].Series, lang) + " " + formatNum(b.total)
					if len(b.segs) > 0 {
						var ss []string
						for _, sg := range b.segs {
							ss = append(ss, s.label(sg.series, lang)+" "+formatNum(sg.v))
						}
						t += " (" + strings.Join(ss, ", ") + ")"
					}
					bs = append(bs, t)
				}
				parts = append(parts, Plain(s.Panels[i].Groups[gi].Label, lang)+": "+strings.Join(bs, ", "))
			}
		}
	case KindRate:
		for i, pd := range d.panels {
			for gi, g := range pd.groups {
				lbl := g.rateRaw
				if !strings.HasSuffix(lbl, "%") {
					lbl = formatNum(g.rate) + "%"
				}
				parts = append(parts, Plain(s.Panels[i].Groups[gi].Label, lang)+": "+lbl)
			}
		}
	case KindPercentiles:
		for i, pd := range d.panels {
			var vs []string
			for qi, v := range pd.lat {
				vs = append(vs, strings.ReplaceAll(s.Panels[i].Percentiles[qi], "_", ".")+" "+formatNum(v)+" "+s.Unit)
			}
			t := strings.Join(vs, ", ")
			if title := Plain(s.Panels[i].Title, lang); title != "" {
				t = title + ": " + t
			}
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, ". ") + "."
}
