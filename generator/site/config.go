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
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// ConfigFile is the Hugo configuration file evdoc reads.
const ConfigFile = "hugo.toml"

// Language is one site language as hugo.toml declares it (see
// translation.Language).
type Language = translation.Language

// Config is the part of hugo.toml evdoc needs.
type Config struct {
	DefaultContentLanguage string              `toml:"defaultContentLanguage"`
	Languages              map[string]Language `toml:"languages"`
	Params                 struct {
		// SourceLanguage names the language translations are made from;
		// defaultContentLanguage when empty.
		SourceLanguage string `toml:"sourceLanguage"`
	} `toml:"params"`
}

// Ordered returns the languages by weight, then code; the source language
// (see Source) is first.
func (c *Config) Ordered() []Language {
	var out []Language
	for code, l := range c.Languages {
		l.Code = code
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if src := c.SourceCode(); (a.Code == src) != (b.Code == src) {
			return a.Code == src
		}
		if a.Weight != b.Weight {
			return a.Weight < b.Weight
		}
		return a.Code < b.Code
	})
	return out
}

// SourceCode returns the code of the source language: params.sourceLanguage
// when set, else defaultContentLanguage.
func (c *Config) SourceCode() string {
	if c.Params.SourceLanguage != "" {
		return c.Params.SourceLanguage
	}
	return c.DefaultContentLanguage
}

// Source returns the source language (see SourceCode).
func (c *Config) Source() Language {
	code := c.SourceCode()
	l := c.Languages[code]
	l.Code = code
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
			return nil, diag.List{diag.Errorf(diag.NewLineIndex(ConfigFile, src).LineCol(pe.Position.Line, pe.Position.Col), diag.SiteConfig, "invalid TOML: %s", pe.Message)}
		}
		return nil, fmt.Errorf("%s: %v", ConfigFile, err)
	}
	if len(c.Languages) == 0 {
		return nil, fmt.Errorf("%s: no [languages]; expected one table per language with contentDir", ConfigFile)
	}
	for code, l := range c.Languages {
		if l.ContentDir == "" {
			// Hugo's default: one content directory, languages told by
			// file name suffixes (page.ja.md).
			l.ContentDir = "content"
			c.Languages[code] = l
		}
	}
	if _, ok := c.Languages[c.DefaultContentLanguage]; !ok {
		return nil, fmt.Errorf("%s: defaultContentLanguage %q is not among [languages]", ConfigFile, c.DefaultContentLanguage)
	}
	if _, ok := c.Languages[c.SourceCode()]; !ok {
		return nil, fmt.Errorf("%s: params.sourceLanguage %q is not among [languages]", ConfigFile, c.Params.SourceLanguage)
	}
	return &c, nil
}
