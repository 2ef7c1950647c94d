package figure

import "regexp"

// callRe is a page's evfigure shortcode call and the figure it names.
var callRe = regexp.MustCompile(`\{\{[<%]\s*evfigure\s+name\s*=\s*"([^"]*)"`)

// Calls returns the names of the figures the evfigure shortcode calls of
// a page's source name, in order.
func Calls(src []byte) []string {
	var out []string
	for _, m := range callRe.FindAllSubmatch(src, -1) {
		out = append(out, string(m[1]))
	}
	return out
}
