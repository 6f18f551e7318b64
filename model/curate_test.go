package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCleanLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"- [decision|c=0.95|i=0.90] 22:43 [main] user: We decided to use PostgreSQL instead of MongoDB for the [[Northwind]] billing service.",
			"We decided to use PostgreSQL instead of MongoDB for the Northwind billing service."},
		{"🔴 14:30 [[PostgreSQL]] chosen for the database over [[MongoDB]].", "PostgreSQL chosen for the database over MongoDB."},
		{"- 🟢 14:50 Server deployed successfully.", "Server deployed successfully."},
		{"- 10:03 We decided to use PostgreSQL instead of MongoDB.", "We decided to use PostgreSQL instead of MongoDB."},
		{"- [ ] TODO: export the audit log by 2026-11-25.", "TODO: export the audit log by 2026-11-25."},
		{"* [x] done", "done"},
		{"12. numbered item", "numbered item"},
		{"  - [telegram-group] user: Jonas: TODO: draft the notes.", "Jonas: TODO: draft the notes."},
		{"[main] assistant: Noted.", "Noted."},
		{"Talked to [[people/elena|Elena]] and [[Marco]].", "Talked to Elena and Marco."},
		{"[[unclosed link", "[[unclosed link"},
		{"## Decisions", "Decisions"},
		{"- **Elena Vasquez**: finance lead", "**Elena Vasquez**: finance lead"},
		{"[not a tag]: x", "[not a tag]: x"},
		{"- [lesson|c=0.80|i=0.45] 02:42 [discord] user:   two   spaces ", "two spaces"},
		{"", ""},
	} {
		if got := CleanLine(tc.in); got != tc.want {
			t.Errorf("CleanLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMatchKey(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"- **Ship** it.", "ship it"},
		{"- [fact|c=0.72|i=0.50] 14:19 [discord] user: The bot runs in Frankfurt.", "The bot runs in   Frankfurt"},
		{"- Never run migrations without a backup snapshot.", "never run migrations without a `backup` snapshot!"},
	}
	for _, p := range same {
		if MatchKey(p[0]) != MatchKey(p[1]) {
			t.Errorf("%q and %q should match (%q, %q)", p[0], p[1], MatchKey(p[0]), MatchKey(p[1]))
		}
	}
	if MatchKey("ship it") == MatchKey("ship it now") {
		t.Error("different sentences match")
	}
}

const memoryMD = `# MEMORY.md

## People
- **Elena Vasquez**: finance lead at Northwind.

## Projects
### Northwind billing
- Invoices are immutable.

## Runbooks
Backup first:

` + "```bash\n# not a heading\npg_dump\n```" + `

## Lessons
- Never run migrations without a backup snapshot.
`

func TestHeadings(t *testing.T) {
	t.Parallel()
	hs := Headings(memoryMD)
	var got []string
	for _, h := range hs {
		got = append(got, fmt.Sprintf("%s %s %d-%d-%d", strings.Repeat("#", h.Level), h.Title, h.Line, h.BodyEnd, h.End))
	}
	want := []string{"# MEMORY.md 1-2-19", "## People 3-5-5", "## Projects 6-6-9", "### Northwind billing 7-9-9", "## Runbooks 10-17-17", "## Lessons 18-19-19"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if hs := Headings("---\ntitle: x\n# not\n---\n# Yes\n"); len(hs) != 1 || hs[0].Title != "Yes" || hs[0].Line != 5 {
		t.Errorf("front matter: %+v", hs)
	}
}

func TestHeadingsAfterAByteOrderMark(t *testing.T) {
	hs := Headings("\ufeff# Memory\n\n## Decisions\n- one\n")
	if len(hs) != 2 || hs[0].Title != "Memory" || hs[0].Line != 1 || hs[1].Title != "Decisions" {
		t.Errorf("got %+v, want # Memory at line 1, then ## Decisions", hs)
	}
}

func TestInsertItem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, section, item string
		create                    bool
		wantText                  string
		line                      int
		added, created            bool
		err                       bool
	}{
		{name: "end of a section", text: memoryMD, section: "lessons", item: "- [lesson|c=0.80|i=0.80] 18:53 [cron] user: Long-running cron jobs need a timeout.",
			wantText: memoryMD + "- Long-running cron jobs need a timeout.\n", line: 20, added: true},
		{name: "before subsections", text: memoryMD, section: "Projects", item: "Telegram bot shipped",
			wantText: strings.Replace(memoryMD, "## Projects\n", "## Projects\n- Telegram bot shipped\n", 1), line: 7, added: true},
		{name: "after the section's last line, not its blank", text: memoryMD, section: "People", item: "Marco at Acme",
			wantText: strings.Replace(memoryMD, "Northwind.\n", "Northwind.\n- Marco at Acme\n", 1), line: 5, added: true},
		{name: "after a code block", text: memoryMD, section: "runbooks", item: "restore weekly",
			wantText: strings.Replace(memoryMD, "```\n\n## Lessons", "```\n- restore weekly\n\n## Lessons", 1), line: 17, added: true},
		{name: "already present anywhere", text: memoryMD, section: "People", item: "🔴 09:00 never run migrations without a **backup** snapshot",
			wantText: memoryMD, line: 19},
		{name: "not in a code block", text: memoryMD, section: "Lessons", item: "pg_dump",
			wantText: memoryMD + "- pg_dump\n", line: 20, added: true},
		{name: "missing section", text: memoryMD, section: "Decisions", item: "x", err: true},
		{name: "new section", text: memoryMD, section: "Decisions", item: "We use PostgreSQL.", create: true,
			wantText: memoryMD + "\n## Decisions\n- We use PostgreSQL.\n", line: 22, added: true, created: true},
		{name: "new file", text: "", section: "Decisions", item: "x", create: true,
			wantText: "## Decisions\n- x\n", line: 2, added: true, created: true},
		{name: "no final newline", text: "## A\n- one", section: "A", item: "two",
			wantText: "## A\n- one\n- two\n", line: 3, added: true},
		{name: "crlf", text: "## A\r\n- one\r\n\r\n## B\r\n", section: "A", item: "two",
			wantText: "## A\r\n- one\r\n- two\r\n\r\n## B\r\n", line: 3, added: true},
		{name: "empty section body", text: "## A\n## B\n- b\n", section: "a", item: "x",
			wantText: "## A\n- x\n## B\n- b\n", line: 2, added: true},
		{name: "empty text", text: memoryMD, section: "A", item: "- [ ] ", err: true},
		// A byte-order mark before the first heading hides nothing: the
		// section is found (never added a second time) and the mark kept.
		{name: "byte-order mark before the first heading", text: "\ufeff## Decisions\n- one\n\n## B\n", section: "Decisions", item: "two", create: true,
			wantText: "\ufeff## Decisions\n- one\n- two\n\n## B\n", line: 3, added: true},
		{name: "byte-order mark before a present item", text: "\ufeff- two\n## Decisions\n", section: "Decisions", item: "two", create: true,
			wantText: "\ufeff- two\n## Decisions\n", line: 1},
		{name: "byte-order mark and CRLF", text: "\ufeff# Memory\r\n\r\n## A\r\n- one\r\n", section: "a", item: "two",
			wantText: "\ufeff# Memory\r\n\r\n## A\r\n- one\r\n- two\r\n", line: 5, added: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := InsertItem(tc.text, tc.section, tc.item, tc.create)
			if tc.err {
				if err == nil {
					t.Fatalf("no error; text %q", got.Text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != tc.wantText || got.Line != tc.line || got.Added != tc.added || got.Created != tc.created {
				t.Errorf("got line %d added %v created %v\n%q\nwant line %d added %v created %v\n%q",
					got.Line, got.Added, got.Created, got.Text, tc.line, tc.added, tc.created, tc.wantText)
			}
			if got.Added {
				// Idempotent: the same item again adds nothing, at the same line.
				again, err := InsertItem(got.Text, tc.section, tc.item, tc.create)
				if err != nil || again.Added || again.Text != got.Text || again.Line != got.Line {
					t.Errorf("second insert: %+v, %v", again, err)
				}
			}
		})
	}
	var nse *NoSectionError
	if _, err := InsertItem(memoryMD, "Decisions", "x", false); !errors.As(err, &nse) || len(nse.Have) != 6 {
		t.Errorf("missing section: %v", err)
	}
}

func TestLineAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		n    int
		want string
		ok   bool
	}{{"a\r\nb\nc", 1, "a", true}, {"a\r\nb\nc", 3, "c", true}, {"a\n", 2, "", false}, {"a", 0, "", false}} {
		if got, ok := LineAt(tc.text, tc.n); got != tc.want || ok != tc.ok {
			t.Errorf("LineAt(%q, %d) = %q, %v", tc.text, tc.n, got, ok)
		}
	}
}
