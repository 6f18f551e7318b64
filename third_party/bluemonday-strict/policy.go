package bluemonday

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// Policy is bluemonday's strict policy: no element, attribute, style or
// comment is allowed.
type Policy struct{}

// StrictPolicy returns the policy that strips every HTML element and its
// attributes, leaving the text (HTML-escaped).
func StrictPolicy() *Policy { return &Policy{} }

// skipContent are the elements whose text bluemonday's default policy
// drops with them (addDefaultSkipElementContent).
var skipContent = map[string]bool{
	"frame": true, "frameset": true, "iframe": true, "noembed": true, "noframes": true,
	"noscript": true, "nostyle": true, "object": true, "script": true, "style": true, "title": true,
}

// Sanitize returns s with every element, comment and doctype removed and
// the text HTML-escaped; an s of white space only is returned as it is,
// and input the tokenizer fails on gives "".
func (p *Policy) Sanitize(s string) string {
	if strings.TrimSpace(s) == "" {
		return s
	}
	var buff bytes.Buffer
	if err := sanitize(strings.NewReader(s), &buff); err != nil {
		return ""
	}
	return buff.String()
}

// sanitize is bluemonday's Policy.sanitize for the strict policy: the
// branches for allowed elements, attributes, comments, unsafe content and
// added spaces are gone, because that policy takes none of them.
func sanitize(r io.Reader, buff *bytes.Buffer) error {
	var (
		skipElementContent       bool
		skippingElementsCount    int64
		mostRecentlyStartedToken string
	)
	tokenizer := html.NewTokenizer(r)
	for {
		if tokenizer.Next() == html.ErrorToken {
			if err := tokenizer.Err(); err != io.EOF {
				return err
			}
			return nil
		}
		token := tokenizer.Token()
		switch token.Type {
		case html.StartTagToken:
			mostRecentlyStartedToken = normaliseElementName(token.Data)
			if mostRecentlyStartedToken == "script" || mostRecentlyStartedToken == "style" {
				continue
			}
			if skipContent[token.Data] {
				skipElementContent = true
				skippingElementsCount++
			}
		case html.EndTagToken:
			name := normaliseElementName(token.Data)
			if mostRecentlyStartedToken == name {
				mostRecentlyStartedToken = ""
			}
			if name == "script" || name == "style" {
				continue
			}
			if skipContent[token.Data] {
				skippingElementsCount--
				if skippingElementsCount == 0 {
					skipElementContent = false
				}
			}
		case html.TextToken:
			if !skipElementContent && mostRecentlyStartedToken != "script" && mostRecentlyStartedToken != "style" {
				buff.WriteString(token.String())
			}
		}
		// Doctypes, comments and self-closing tags write nothing.
	}
}

// normaliseElementName lower-cases an element name with its non-ASCII
// escaped, so that no look-alike letter turns into "script" (bluemonday's
// function of the same name).
func normaliseElementName(str string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strconv.QuoteToASCII(str)), `"`), `"`)
}
