package typeset

// LoadFonts loads the font chain of every language from dir.
func LoadFonts(dir string, langs []string) (map[string]*Fonts, error) {
	out := map[string]*Fonts{}
	for _, l := range langs {
		f, err := LoadChain(dir, l)
		if err != nil {
			return nil, err
		}
		out[l] = f
	}
	return out, nil
}
