package serve

import (
	"strconv"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
)

// multihostNotice is what serve says when it serves a multihost site.
const multihostNotice = "evdoc: a multihost site (a language sets its own baseURL): Hugo's server listens on one port per language (the addresses it prints below) without evdoc's front, so requests are not checked for their Host name (DNS rebinding) and Hugo's live reload reloads every open page at each rebuild"

// multihost reports whether the project's Hugo configuration gives a
// language a baseURL of its own. A configuration that cannot be read is
// not multihost here: the first check reports it.
func multihost(root string) bool {
	c, err := hugoconf.LoadConfig(root)
	return err == nil && c.PublishURLs.Multihost
}

// directServerArgs are the flags of Hugo's server when it listens where
// serve was told, without the front: Hugo's own defaults (127.0.0.1,
// port 1313 or the next free one, the port appended to each language's
// baseURL) unless Options say otherwise.
func directServerArgs(opt Options) []string {
	var args []string
	if opt.Bind != "" {
		args = append(args, "--bind", opt.Bind)
	}
	if opt.Port != 0 {
		args = append(args, "--port", strconv.Itoa(opt.Port))
	}
	if opt.BaseURL != "" {
		args = append(args, "--baseURL", opt.BaseURL)
	}
	return args
}
