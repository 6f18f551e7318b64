// Package bluemonday stands in for github.com/microcosm-cc/bluemonday in
// clawvault-tui's build: it has StrictPolicy and Policy.Sanitize, the only
// names glamour v2 calls (ansi/context.go strips the tags of HTML in
// Markdown with them), and gives exactly what bluemonday v1.0.27's
// StrictPolicy gives.
//
// Why: bluemonday links its CSS property validators (bluemonday/css,
// aymerick/douceur, gorilla/css), and those and bluemonday itself compile
// about 200 regular expressions at package initialisation: 9 ms of CPU
// and 1.1 MB of allocations before main, for every clawvault-tui command,
// a search as a --version; Go offers no way to defer a linked package's
// init. A strict policy allows no element, attribute or style, so none of
// that is ever used by it.
//
// The sanitizer below is bluemonday's own loop (sanitize.go) with the
// policy's maps and flags fixed at what StrictPolicy makes them: the HTML
// is tokenized by golang.org/x/net/html, as there; every tag, comment and
// doctype is dropped; text is written HTML-escaped, except inside script
// and style and inside the elements whose content bluemonday skips.
// TestStrictPolicySanitizesAsBluemonday, in the repository's
// ui/markdown_test.go, holds bluemonday v1.0.27's outputs for the inputs
// that exercise each branch. A glamour upgrade that calls more of
// bluemonday fails to compile, which is the signal to look.
package bluemonday
