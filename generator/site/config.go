// Package site loads the Hugo project evdoc builds (hugo.toml, content/,
// layouts/, static/), checks it, stages it with generated pages, figures
// and data, and runs the pinned Hugo on the stage.
package site

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/BurntSushi/toml"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// ConfigFile is the Hugo configuration file evdoc reads.
const ConfigFile = "hugo.toml"

// Language is one site language as hugo.toml declares it under
// [languages.CODE]: label, locale, weight and contentDir.
type Language struct {
	Code       string
	Label      string `toml:"label"`
	Locale     string `toml:"locale"`
	Weight     int    `toml:"weight"`
	ContentDir string `toml:"contentDir"`
	Title      string `toml:"title"`
}

// Config is the part of hugo.toml evdoc needs.
type Config struct {
	DefaultContentLanguage string              `toml:"defaultContentLanguage"`
	Languages              map[string]Language `toml:"languages"`
}

// Ordered returns the languages by weight, then code; the source language
// (defaultContentLanguage) is first.
func (c *Config) Ordered() []Language {
	var out []Language
	for code, l := range c.Languages {
		l.Code = code
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Code == c.DefaultContentLanguage) != (b.Code == c.DefaultContentLanguage) {
			return a.Code == c.DefaultContentLanguage
		}
		if a.Weight != b.Weight {
			return a.Weight < b.Weight
		}
		return a.Code < b.Code
	})
	return out
}

// Source returns the source language: defaultContentLanguage.
func (c *Config) Source() Language {
	l := c.Languages[c.DefaultContentLanguage]
	l.Code = c.DefaultContentLanguage
	return l
}

// LoadConfig reads root/hugo.toml. Every language must name its contentDir;
// the default content language must be one of them.
func LoadConfig(root string) (*Config, error) {
	src, err := os.ReadFile(filepath.Join(root, ConfigFile))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", ConfigFile, err)
	}
	var c Config
	if _, err := toml.Decode(string(src), &c); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, diag.List{diag.Errorf(diag.NewLineIndex(ConfigFile, src).LineCol(pe.Position.Line, pe.Position.Col), "site-config", "invalid TOML: %s", pe.Message)}
		}
		return nil, fmt.Errorf("%s: %v", ConfigFile, err)
	}
	if len(c.Languages) == 0 {
		return nil, fmt.Errorf("%s: no [languages]; expected one table per language with contentDir", ConfigFile)
	}
	for code, l := range c.Languages {
		if l.ContentDir == "" {
			return nil, fmt.Errorf("%s: [languages.%s] has no contentDir; evdoc expects one content directory per language", ConfigFile, code)
		}
	}
	if _, ok := c.Languages[c.DefaultContentLanguage]; !ok {
		return nil, fmt.Errorf("%s: defaultContentLanguage %q is not among [languages]", ConfigFile, c.DefaultContentLanguage)
	}
	return &c, nil
}
