// The part of chroma's API that glamour v2 compiles against, without
// chroma's lexers and styles (see doc.go). go.mod's replace directive
// puts it in chroma's place.
module github.com/alecthomas/chroma/v2

go 1.22
