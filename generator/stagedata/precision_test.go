package stagedata

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestPrecisionIndexMulti compares PrecisionIndex.Multi with
// PrecisionMarks's multi over random sequences of StageData, each made
// of the last one's units with some replaced by new ones (a re-check's
// pages) and some dropped or added (pages removed, added): a unit gone
// must take its precisions with it, a unit kept must not be read twice.
func TestPrecisionIndexMulti(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 1))
		newUnit := func() *ClaimStage {
			u := &ClaimStage{}
			for range r.IntN(6) {
				bs := []stageBinding{{Ref: "s/v", Places: r.IntN(3)}}
				if r.IntN(4) == 0 {
					bs[0].Unit = "ms"
				}
				if r.IntN(5) == 0 {
					bs = append(bs, stageBinding{Ref: "s/w", Places: r.IntN(2)})
				}
				u.Dests = append(u.Dests, &DestClaim{Dest: fmt.Sprintf("ev:s/v%d", r.IntN(5)), Bindings: bs})
			}
			return u
		}
		var x PrecisionIndex
		var units []*ClaimStage
		for range 8 {
			units = append(units, newUnit())
		}
		for step := range 30 {
			sd := &StageData{Units: units}
			got := x.Multi(sd)
			want := sd.precisionMulti()
			if !maps.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("seed %d step %d: Multi %v, want %v", seed, step, got, want)
			}
			if got != nil {
				got["ev:changed"] = true // a new map: the index's stays as it is
			}
			next := make([]*ClaimStage, 0, len(units)+1)
			for _, u := range units {
				switch r.IntN(6) {
				case 0: // re-checked
					next = append(next, newUnit())
				case 1: // gone
				default:
					next = append(next, u)
				}
			}
			if r.IntN(3) == 0 {
				next = append(next, newUnit())
			}
			units = next
		}
	}
}
