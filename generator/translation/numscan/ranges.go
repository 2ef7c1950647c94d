package numscan

import "strings"

// rangeSeparators join the two ends of a range written in prose (3~5초,
// 3〜5秒, 10-20%, 3–5 s).
var rangeSeparators = []string{"~", "〜", "～", "–", "-"}

// lowerEndUnit gives n, a number without a unit read at norm[:end], the
// unit of the upper end of a range it starts (3~5초: 3 is 3 seconds, as
// the claim grammar reads [3~5초]), so that 3~5초 agrees with 3秒から5秒.
// A number that is no range's lower end, or whose upper end has no unit
// (3~5, 3-5회), is left as it is.
func lowerEndUnit(norm string, end int, n *Number) {
	if n.Unit != "" || n.Kind != "number" {
		return
	}
	k := end
	for k < len(norm) && norm[k] == ' ' {
		k++
	}
	sep := ""
	for _, s := range rangeSeparators {
		if strings.HasPrefix(norm[k:], s) {
			sep = s
			break
		}
	}
	if sep == "" {
		return
	}
	k += len(sep)
	for k < len(norm) && norm[k] == ' ' {
		k++
	}
	if k >= len(norm) || norm[k] < '0' || norm[k] > '9' {
		return
	}
	m, _, scale := readQuantity(norm, k)
	if m.Unit == "" || scale.Sign() <= 0 || m.Unit == "/s" {
		return
	}
	n.Unit = m.Unit
	n.Value = n.Value.Mul(scale)
}
