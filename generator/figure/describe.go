package figure

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
)

// AltText returns the image alt text for lang: the spec's alt text (claim
// links reduced to their text) followed by the data the chart shows,
// generated from the evidence so it cannot disagree with the image.
func (s *Spec) AltText(st *evidence.Store, lang string) (string, error) {
	d, errs := s.data(st)
	if errs != nil {
		return "", errs
	}
	return strings.TrimSpace(spec.Plain(s.Alt, lang)) + punctuationOf(lang).space + s.describe(d, lang), nil
}

// punctuation is how the generated alt text separates its parts in one
// language: Japanese writes full-width punctuation (、。：（）) and no
// space between sentences; Korean and English write ASCII punctuation.
type punctuation struct {
	space                      string // before an opening parenthesis and between the spec's alt text and the data
	list, group, label         string // between values, between counters, after a label
	open, close, stop, lastEnd string // parentheses; between sentences, and after the last
}

func punctuationOf(lang string) punctuation {
	if lang == "ja" {
		return punctuation{space: "", list: "、", group: "／", label: "：", open: "（", close: "）", stop: "。", lastEnd: "。"}
	}
	return punctuation{space: " ", list: ", ", group: "; ", label: ": ", open: "(", close: ")", stop: ". ", lastEnd: "."}
}

func (s *Spec) label(id, lang string) string {
	if t, ok := s.Legend[id]; ok && t[lang] != "" {
		return spec.Plain(t, lang)
	}
	return id
}

// describe writes the chart's numbers as text.
func (s *Spec) describe(d *figData, lang string) string {
	p := punctuationOf(lang)
	var parts []string
	switch s.Kind {
	case spec.KindTimeline:
		var snaps []string
		for j, sn := range s.Snapshots {
			snaps = append(snaps, fmt.Sprintf("%s %s s", strings.ToUpper(sn), signed(d.times[j])))
		}
		head := p.open + strings.Join(snaps, p.list) + p.close
		if s.Flip != "" {
			head += fmt.Sprintf("%s%s %s s", p.space, spec.Plain(s.FlipLabel, lang), signed(d.flip))
		}
		parts = append(parts, head)
		for i, pd := range d.panels {
			var cs []string
			for ci, row := range pd.deltas {
				var vs []string
				for _, v := range row {
					vs = append(vs, signed(v))
				}
				cs = append(cs, s.label(s.Counters[ci], lang)+" "+strings.Join(vs, p.list))
			}
			t := strings.Join(cs, p.group)
			if title := spec.Plain(s.Panels[i].Title, lang); title != "" {
				t = title + p.label + t
			}
			parts = append(parts, t)
		}
	case spec.KindBars:
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
						t += p.space + p.open + strings.Join(ss, p.list) + p.close
					}
					bs = append(bs, t)
				}
				parts = append(parts, spec.Plain(s.Panels[i].Groups[gi].Label, lang)+p.label+strings.Join(bs, p.list))
			}
		}
	case spec.KindRate:
		for i, pd := range d.panels {
			for gi, g := range pd.groups {
				lbl := g.rateRaw
				if !strings.HasSuffix(lbl, "%") {
					lbl = formatNum(g.rate) + "%"
				}
				parts = append(parts, spec.Plain(s.Panels[i].Groups[gi].Label, lang)+p.label+lbl)
			}
		}
	case spec.KindPercentiles:
		for i, pd := range d.panels {
			var vs []string
			for qi, v := range pd.lat {
				vs = append(vs, strings.ReplaceAll(s.Panels[i].Percentiles[qi], "_", ".")+" "+formatNum(v)+" "+s.Unit)
			}
			t := strings.Join(vs, p.list)
			if title := spec.Plain(s.Panels[i].Title, lang); title != "" {
				t = title + p.label + t
			}
			parts = append(parts, t)
		}
	}
	parts = append(parts, s.describeKind(d, lang)...)
	return strings.Join(parts, p.stop) + p.lastEnd
}

// describeKind writes the numbers of a spectrum, timeseries,
// distribution or compare chart as text.
func (s *Spec) describeKind(d *figData, lang string) []string {
	p := punctuationOf(lang)
	var parts []string
	titled := func(i int, t string) string {
		if title := spec.Plain(s.Panels[i].Title, lang); title != "" {
			return title + p.label + t
		}
		return t
	}
	// few lists every value; more are summarised by their first and last.
	few := func(vs []string) string {
		if len(vs) > 12 {
			return fmt.Sprintf("%s … %s%s%s%d%s", vs[0], vs[len(vs)-1], p.space, p.open, len(vs), p.close)
		}
		return strings.Join(vs, p.list)
	}
	switch s.Kind {
	case spec.KindSpectrum:
		for i, pd := range d.panels {
			var rs []string
			for _, run := range pd.runs {
				var vs []string
				for k, q := range run.p {
					if spec.InSpectrum(q) {
						vs = append(vs, "p"+strconv.FormatFloat(q, 'f', -1, 64)+" "+run.txt[k]+" "+s.Unit)
					}
				}
				t := s.label(run.id, lang) + " " + few(vs)
				if run.derived {
					w := derivedWords[lang]
					if w == "" {
						w = derivedWords["en"]
					}
					t += p.space + p.open + w + p.close
				}
				rs = append(rs, t)
			}
			parts = append(parts, titled(i, strings.Join(rs, p.group)))
		}
	case spec.KindSeries:
		for i, pd := range d.panels {
			var ls []string
			for _, l := range pd.lines {
				var vs []string
				for k := range l.xs {
					vs = append(vs, signed(l.xs[k])+" s "+l.txt[k]+unitSuffix(pd.yUnit))
				}
				ls = append(ls, s.label(l.id, lang)+" "+few(vs))
			}
			parts = append(parts, titled(i, strings.Join(ls, p.group)))
		}
		for k, e := range d.events {
			parts = append(parts, spec.Plain(s.Events[k].Label, lang)+" "+signed(e.t)+" s")
		}
	case spec.KindDistribution:
		for i, pd := range d.panels {
			var hs []string
			for _, h := range pd.hists {
				var vs []string
				for k := range h.n {
					vs = append(vs, fmt.Sprintf("%s–%s %s %s", h.loTxt[k], h.hiTxt[k], s.Unit, formatNum(h.n[k])))
				}
				hs = append(hs, s.label(h.id, lang)+" "+few(vs))
			}
			parts = append(parts, titled(i, strings.Join(hs, p.group)))
		}
	case spec.KindCompare:
		for i, pd := range d.panels {
			for gi, g := range pd.groups {
				var bs []string
				for bi, b := range g.bars {
					t := s.label(s.Panels[i].Groups[gi].Bars[bi].Series, lang) + " " + b.more.txt + unitSuffix(pd.yUnit)
					if b.more.hasErr {
						t += " " + b.more.spreadRaw
					}
					bs = append(bs, t)
				}
				t := spec.Plain(s.Panels[i].Groups[gi].Label, lang) + p.label + strings.Join(bs, p.list)
				if g.delta != "" {
					t += p.space + p.open + g.delta + p.close
				}
				parts = append(parts, t)
			}
		}
	}
	return parts
}

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " " + shownUnit(u)
}

// derivedWords say, in the alt text, that a spectrum run's percentiles
// are interpolated in a histogram's buckets (buckets.go), not measured.
var derivedWords = map[string]string{"ko": "버킷에서 선형 보간한 추정값", "ja": "バケットから線形補間した推定値", "en": "estimated by linear interpolation in buckets"}
