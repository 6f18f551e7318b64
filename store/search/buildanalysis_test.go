package search

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/document"

	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

// analysisTexts are texts where the English analyzer's filters and the
// code analyzer's folding do something: possessives with each apostrophe,
// stop words, stems, case, diacritics, invalid UTF-8, numbers and words
// that Unicode segmentation keeps whole.
var analysisTexts = []string{
	"",
	"Elena's invoices, Müller’s notes and Zoë＇s café: the THE The naïve runners RUNNING ran.",
	"tea.KeyPressMsg e.g. 3.14 don't can't U.S.A. foo_bar a:b 2026-11-21 10:42 v0.3",
	"\x00\xff\xfe garbage \xc3 validword \x80 ﬁle Ǆemo ΣΑΣ straße İstanbul",
	"- [decision|c=0.95|i=0.90] 10:42 [cron] user: We decided to use PostgreSQL instead of MongoDB.",
	"🔴 08:00 [[Shipped]] the [[Northwind]] invoice export 日本語のテキスト 한국어 ไทย",
	"ledger/observations/2026/03/01.md\nobservations/2026/03/01.md\n01.md",
	"root:vault\ntype:decision\nc:0.9500",
}

// checkBuildAnalysis compares what buildAnalysis makes of every indexed
// field of a section's document with TextField.Analyze.
func checkBuildAnalysis(t *testing.T, ba *buildAnalysis, an analyzers, f fileRef, s Section) {
	t.Helper()
	want := an.newDocument("id", f, s, pathTerms(f.rel))
	got := an.newDocument("id", f, s, pathTerms(f.rel))
	for i, wf := range want.Fields {
		tf, ok := wf.(*document.TextField)
		if !ok || !tf.Options().IsIndexed() {
			continue
		}
		tf.Analyze()
		g := ba.field(got.Fields[i].(*document.TextField))
		if g.AnalyzedLength() != tf.AnalyzedLength() || !reflect.DeepEqual(g.AnalyzedTokenFrequencies(), tf.AnalyzedTokenFrequencies()) {
			t.Fatalf("%s line %d, field %s of %q:\n got %d %v\nwant %d %v", f.rel, s.Line, tf.Name(), s.Text,
				g.AnalyzedLength(), g.AnalyzedTokenFrequencies(), tf.AnalyzedLength(), tf.AnalyzedTokenFrequencies())
		}
		// (Analyze lower-cases a field that is not stored in place.)
		if tf.Options().IsStored() && string(g.Value()) != string(tf.Value()) {
			t.Fatalf("%s: field %s's value changed: %q, want %q", f.rel, tf.Name(), g.Value(), tf.Value())
		}
	}
}

// TestBuildAnalysisIsTextFieldAnalyze: over every section of a generated
// vault and the texts above, a full build's analysis gives every field
// the length and token frequencies (terms, counts, locations) that
// TextField.Analyze gives it, with its memo warm and cold.
func TestBuildAnalysisIsTextFieldAnalyze(t *testing.T) {
	t.Parallel()
	m := demotest.Shared(t, demotest.Spec{Options: demo.ScaleOptions(1, 1, time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))})
	mp := newMapping()
	an := newAnalyzers(mp)
	ba := newBuildAnalysis(an)
	if len(ba.memo) != 2 {
		t.Fatalf("memo for %d analyzers, want the English and the code one", len(ba.memo))
	}
	root := &Root{ID: "vault", Kind: VaultRoot, Dir: m.VaultDir}
	files := 0
	for pass := range 2 { // cold, then warm
		err := filepath.WalkDir(m.VaultDir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(m.VaultDir, path)
			f := fileRef{root: root, rel: filepath.ToSlash(rel)}
			for _, s := range SplitMarkdown(data) {
				checkBuildAnalysis(t, ba, an, f, s)
			}
			if pass == 0 {
				files++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Fatalf("only %d files in the demo vault", files)
	}
	for _, text := range analysisTexts {
		f := fileRef{root: root, rel: "Notes/Ünïcode.md"}
		for _, s := range []Section{{Kind: Prose, Line: 1, Heading: text, Text: text}, {Kind: ObservationLine, Line: 2, Heading: text, Text: text}} {
			checkBuildAnalysis(t, ba, an, f, s)
			checkBuildAnalysis(t, ba, an, f, s)
		}
	}
}

// A memo that is full (maxMemoTerms) still analyses as TextField.Analyze:
// the fields with a term past it are counted by hashing their terms.
func TestBuildAnalysisPastTheMemo(t *testing.T) {
	t.Parallel()
	const maxTerms = 12
	an := newAnalyzers(newMapping())
	ba := newBuildAnalysis(an)
	for _, m := range ba.memo {
		m.maxTerms = maxTerms
	}
	root := &Root{ID: "vault", Kind: VaultRoot, Dir: "/vault"}
	f := fileRef{root: root, rel: "notes/a.md"}
	for range 2 {
		for _, text := range append(analysisTexts, "the the a a", "elena elena ELENA") {
			checkBuildAnalysis(t, ba, an, f, Section{Kind: Prose, Line: 1, Heading: text, Text: text})
		}
	}
	for a, m := range ba.memo {
		if len(m.terms) != maxTerms {
			t.Fatalf("the memo of %v holds %d tokens, want %d", a, len(m.terms), maxTerms)
		}
	}
}

// FuzzBuildAnalysis: any text and heading, analysed for a full build, as
// TextField.Analyze analyses it.
func FuzzBuildAnalysis(f *testing.F) {
	for _, s := range analysisTexts {
		f.Add(s, s)
	}
	an := newAnalyzers(newMapping())
	ba := newBuildAnalysis(an)
	root := &Root{ID: "vault", Kind: VaultRoot, Dir: "/vault"}
	f.Fuzz(func(t *testing.T, text, heading string) {
		ref := fileRef{root: root, rel: "a/" + heading + ".md"}
		checkBuildAnalysis(t, ba, an, ref, Section{Kind: Prose, Line: 1, Heading: heading, Text: text})
		checkBuildAnalysis(t, ba, an, ref, Section{Kind: Prose, Line: 1, Heading: heading, Text: text})
	})
}

// asciiWordTexts are ASCII texts around each word-break rule.
var asciiWordTexts = []string{
	"", " ", "a", "_", "__init__", "1_", "_1", "a_", "a1", "1a", "3.14", "3.14a", "a.b", "a.b.", ".a", "a..b", "a:b", "a::b",
	"10:42", "1,000.50", "1,a", "a,1", "a,b", "1;2", "a;b", "don't", "'a'", "a'1", "1'000", "a._b", "a_.b", "1._2", "e.g. U.S.A.",
	"tea.KeyPressMsg", "2026-11-21T10:42:00Z", "x\r\ny\vz\fw", "path/to/file.md", "[decision|c=0.95|i=0.90]", "v0.3; c:0.9500",
	// Not all ASCII: cut into pieces at ASCII white space (appendMixed).
	"- 🔴 09:01 Had a call with [[Jonas]] Müller at 11:00.", "a \u0301b c", "a \u200d🔥 b", "🔴\u200d🔥 x", "x 🏻y", "x\t\u00adb",
	"日本語 テキスト abc", "a\u00a0b", "\u3000 a", "a \xff b", "x ,\u0301 y", "🇩🇪🇫🇷 a", "a\n\u0301b", "\u0301a b",
}

// FuzzASCIIWords: asciiWords tokenizes as bleve's unicode tokenizer, ASCII
// text (the fuzzer's bytes folded into ASCII) and any other.
func FuzzASCIIWords(f *testing.F) {
	for _, s := range append(asciiWordTexts, analysisTexts...) {
		f.Add([]byte(s))
	}
	uni := unicode.NewUnicodeTokenizer()
	fast := asciiWords{unicode: uni}
	f.Fuzz(func(t *testing.T, in []byte) {
		ascii := make([]byte, len(in))
		for i, b := range in {
			ascii[i] = b & 0x7f
		}
		for _, text := range [][]byte{ascii, in} {
			got, want := fast.Tokenize(text), uni.Tokenize(text)
			if len(got) != len(want) {
				t.Fatalf("%q: %d tokens %v, want %d %v", text, len(got), got, len(want), want)
			}
			for i := range got {
				if !reflect.DeepEqual(*got[i], *want[i]) {
					t.Fatalf("%q: token %d is %v, want %v", text, i, got[i], want[i])
				}
			}
		}
	})
}
