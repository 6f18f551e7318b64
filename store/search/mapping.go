package search

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
)

// The fields of a document. Documents are built by hand (newDocument) and
// the mapping describes the same fields, so that queries analyse their
// text as the documents were analysed.
const (
	fieldBody       = "body"       // the section's text, English analyzer, stored
	fieldCode       = "code"       // the same text split on anything not a letter or digit
	fieldHeading    = "heading"    // a section's nearest heading, stored and searched
	fieldDay        = "day"        // an observation line's heading (its day), stored only
	fieldPath       = "path"       // the lower-cased relative path, for path: (pathQuery)
	fieldFacets     = "facets"     // root:<id>, and for observations type:<type>, c:<confidence>
	fieldImportance = "importance" // observation importance as 0.0000–1.0000, sortable
	fieldCut        = "cut"        // the lines cut at maxLineBytes, stored only (cutLongLines)
)

// Facet terms. Numbers are written with four decimals, so that their
// order as strings is their order as numbers (ranges are term ranges).
func rootFacet(id string) string       { return "root:" + id }
func typeFacet(t string) string        { return "type:" + t }
func scoreText(v float64) string       { return strconv.FormatFloat(min(max(v, 0), 1), 'f', 4, 64) }
func confidenceFacet(v float64) string { return "c:" + scoreText(v) }

const (
	// englishAnalyzer is bleve's English analyzer (possessives, lower
	// case, stop words, Porter stemmer) with tokens capped first.
	englishAnalyzer = "clawvault-en"
	// capFilterName cuts every token to maxTokenBytes before the other
	// filters see it (capFilter).
	capFilterName = "clawvault-cap"
	// codeAnalyzer splits on every character that is not a letter or a
	// digit, lower-cases and folds diacritics: `tea.KeyPressMsg` gives
	// `tea`, `keypressmsg` (the English analyzer keeps it as one token),
	// Müller gives muller.
	codeAnalyzer   = "clawvault-code"
	alnumTokenize  = "clawvault-alnum"
	foldFilterName = "clawvault-fold"
	// listAnalyzer reads a value as newline-separated terms, as they are:
	// one field holds all facets of a document (a field per value costs
	// as much again to index).
	listAnalyzer  = "clawvault-list"
	linesTokenize = "clawvault-lines"
)

// splitterVersion changes whenever SplitMarkdown, SplitTranscript or
// newDocument change what gets indexed; with the mapping's own hash it
// makes the schema stamp that forces a rebuild of an older index.
const splitterVersion = 6

func init() {
	// The registry is bleve's: an index names its analyzers, and opening it
	// later finds them here.
	registry.RegisterTokenizer(alnumTokenize, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return classTokenizer{isWordRune}, nil
	})
	registry.RegisterTokenizer(linesTokenize, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return classTokenizer{isNotNewline}, nil
	})
	registry.RegisterTokenFilter(foldFilterName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return foldFilter{}, nil
	})
	registry.RegisterTokenFilter(capFilterName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return capFilter{}, nil
	})
}

// newMapping is the index mapping: static (nothing dynamic), no _all
// field, doc values only where results sort.
func newMapping() *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	if err := im.AddCustomAnalyzer(englishAnalyzer, map[string]any{
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []any{capFilterName, en.PossessiveName, lowercase.Name, en.StopName, porter.Name},
	}); err != nil {
		panic(err) // a static definition: fails in every test if wrong
	}
	if err := im.AddCustomAnalyzer(codeAnalyzer, map[string]any{
		"type":          custom.Name,
		"tokenizer":     alnumTokenize,
		"token_filters": []any{capFilterName, lowercase.Name, foldFilterName},
	}); err != nil {
		panic(err)
	}
	if err := im.AddCustomAnalyzer(listAnalyzer, map[string]any{"type": custom.Name, "tokenizer": linesTokenize}); err != nil {
		panic(err)
	}
	im.DefaultAnalyzer = englishAnalyzer
	im.IndexDynamic, im.StoreDynamic, im.DocValuesDynamic = false, false, false
	im.DefaultField = fieldBody

	text := func(analyzer string, store, vectors bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer, f.Store, f.IncludeTermVectors, f.IncludeInAll, f.DocValues = analyzer, store, vectors, false, false
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Store, f.IncludeInAll, f.DocValues = false, false, false
		return f
	}
	dm := bleve.NewDocumentStaticMapping()
	// Term vectors (positions) only where phrases need them: a phrase, or
	// a word of several code tokens (tea.KeyPressMsg), is matched in the
	// code field. A hit's term locations are found when it is returned
	// (locate.go), not read from here.
	dm.AddFieldMappingsAt(fieldBody, text(englishAnalyzer, true, false))
	dm.AddFieldMappingsAt(fieldCode, text(codeAnalyzer, false, true))
	dm.AddFieldMappingsAt(fieldHeading, text(englishAnalyzer, true, false))
	dm.AddFieldMappingsAt(fieldDay, text(keyword.Name, true, false))
	dm.AddFieldMappingsAt(fieldCut, text(keyword.Name, true, false))
	dm.AddFieldMappingsAt(fieldPath, text(keyword.Name, false, false))
	dm.AddFieldMappingsAt(fieldFacets, text(listAnalyzer, false, false))
	importance := kw()
	importance.DocValues = true // hits of a filter-only query sort by it
	dm.AddFieldMappingsAt(fieldImportance, importance)
	im.DefaultMapping = dm
	return im
}

// schemaStamp identifies what an index was built with: the splitter
// version and a hash of the mapping. An index with another stamp is
// rebuilt.
func schemaStamp(m mapping.IndexMapping) string {
	data, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(data)
	return strconv.Itoa(splitterVersion) + "-" + hex.EncodeToString(sum[:8])
}

// analyzers holds the analyzers documents are built with.
type analyzers struct {
	english, code, keyword, list analysis.Analyzer
}

func newAnalyzers(m *mapping.IndexMappingImpl) analyzers {
	return analyzers{english: m.AnalyzerNamed(englishAnalyzer), code: m.AnalyzerNamed(codeAnalyzer),
		keyword: m.AnalyzerNamed(keyword.Name), list: m.AnalyzerNamed(listAnalyzer)}
}

// newDocument builds the bleve document of one section of a file.
func (a analyzers) newDocument(id string, f fileRef, s Section, pathTerms string) *document.Document {
	d := document.NewDocument(id)
	// Each field gets its own bytes: analysis lower-cases a field's value
	// in place unless the field is stored.
	d.AddField(document.NewTextFieldCustom(fieldBody, nil, []byte(s.Text), index.IndexField|index.StoreField, a.english))
	d.AddField(document.NewTextFieldCustom(fieldCode, nil, []byte(s.Text), index.IndexField|index.IncludeTermVectors, a.code))
	switch {
	case s.Heading == "":
	case s.Kind == ObservationLine:
		// The date heading over observations: shown, not searched (every
		// line of the day would match the date). A field of its own: a
		// segment's options for a field are those of its documents
		// together, and a merge keeps only what every segment has, so
		// the heading field stored alone in some documents would make
		// headings unsearchable after a full build of segments of
		// observation lines only.
		d.AddField(document.NewTextFieldWithIndexingOptions(fieldDay, nil, []byte(s.Heading), index.StoreField))
	default:
		d.AddField(document.NewTextFieldCustom(fieldHeading, nil, []byte(s.Heading), index.IndexField|index.StoreField, a.english))
	}
	d.AddField(document.NewTextFieldCustom(fieldPath, nil, []byte(pathTerms), index.IndexField, a.keyword))
	facets := rootFacet(f.root.ID)
	if s.Kind == ObservationLine {
		o := s.Observation
		facets += "\n" + typeFacet(o.Type) + "\n" + confidenceFacet(o.Confidence)
		d.AddField(document.NewTextFieldCustom(fieldImportance, nil, []byte(scoreText(o.Importance)), index.IndexField|index.DocValues, a.keyword))
	}
	d.AddField(document.NewTextFieldCustom(fieldFacets, nil, []byte(facets), index.IndexField, a.list))
	if len(s.cuts) > 0 {
		d.AddField(document.NewTextFieldWithIndexingOptions(fieldCut, nil, encodeCuts(s.cuts), index.StoreField))
	}
	return d
}

// pathTerms is what path: matches: the lower-cased relative path, one
// term per document. path: matches it or any tail of it that starts at a
// folder boundary (pathQuery), so that `path:northwind` finds
// projects/northwind.md and `path:2026/11` the ledger days of November
// 2026. Each tail was a term of its own once: five terms for a ledger
// day's line, about a tenth of a full build's postings.
func pathTerms(rel string) string { return strings.ToLower(rel) }

// pathMatches says whether path: prefix matches the lower-cased path p:
// p or a tail of it after a / starts with prefix.
func pathMatches(p, prefix string) bool {
	for {
		if strings.HasPrefix(p, prefix) {
			return true
		}
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[i+1:]
	}
}
