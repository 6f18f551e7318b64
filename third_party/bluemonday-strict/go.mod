// bluemonday's StrictPolicy, the one policy glamour v2 uses, without the
// rest of bluemonday (see doc.go). go.mod's replace directive puts it in
// bluemonday's place.
module github.com/microcosm-cc/bluemonday

go 1.22

require golang.org/x/net v0.55.0
