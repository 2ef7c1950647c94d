// Package i18n reads a Hugo site's i18n string tables (TOML, YAML and
// JSON files of the project and its themes, merged as Hugo merges them)
// with positions, gives the text Hugo's T returns for a key (Text), and
// reports the strings a language lacks while the layouts use them or
// another language defines them (Check, rule translation-i18n-string).
package i18n
