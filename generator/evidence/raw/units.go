package raw

// Units a format defines. A reader attaches the unit its format defines
// for a reading whose raw text writes none (Number.Unit); the names are
// the canonical names of package unit ("ns", "us", "ms", "s", "B", "/s").
// A manifest's units declaration that contradicts it is an error (see
// package evidence).

// AttachUnits sets unitOf(key) on every reading whose raw text wrote no
// unit; a repeated key's "#N" suffix is ignored.
func (r *Recorder) AttachUnits(unitOf func(key string) string) {
	r.Out.Flush()
	for i := range r.Out.Len() {
		if h := r.Out.head(i); h.unit == "" {
			if u := unitOf(BaseKey(h.key)); u != "" {
				r.Out.Ref(i).Number.Unit = u
				r.Out.Flush()
			}
		}
	}
}
