package numscan

import (
	"regexp"
	"testing"
)

// FuzzDateForms: at each digit of a text, each of the five expressions
// ScanLang tries matches only where dateFormsAt says it may, so that
// trying it only there reads what trying it everywhere read.
func FuzzDateForms(f *testing.F) {
	for _, s := range []string{"192.168.0.1/24:8080", "2024-03-05", "2024/3/5", "2024.03.05", "2024年3月5日", "2024 년 3 월", "3月5日", "12월", "14:03:22", "1.8.7-rc1", "v1.2.3", "40.5초", "1: 카운터", "12345-6", "1.2.3.4.5", "3 \t月", "2024\n年"} {
		f.Add(s)
	}
	res := []struct {
		name string
		re   *regexp.Regexp
		may  func(dateForms) bool
	}{
		{"ip", ipRe, func(f dateForms) bool { return f.ip }},
		{"isoDate", isoDateRe, func(f dateForms) bool { return f.isoDate }},
		{"cjkDate", cjkDateRe, func(f dateForms) bool { return f.cjkDate }},
		{"clock", clockRe, func(f dateForms) bool { return f.clock }},
		{"version", versionRe, func(f dateForms) bool { return f.version }},
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				continue
			}
			forms := dateFormsAt(s, i)
			for _, r := range res {
				if r.re.FindStringSubmatch(s[i:]) != nil && !r.may(forms) {
					t.Fatalf("%s matches %q at %d, where dateFormsAt rules it out", r.name, s, i)
				}
			}
		}
	})
}
