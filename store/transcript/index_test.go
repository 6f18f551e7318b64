package transcript

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func buildFile(t *testing.T, path string) *Index {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	ix, err := Build(context.Background(), path, f, fi.Size(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestSpecExamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file        string
		nodes       int
		leaf        string
		activePath  []string
		roots       []string
		branches    []string
		context     []string
		labels      map[string]string
		name        string
		compactions int
	}{
		{
			file:        "spec-linear-compaction.jsonl",
			nodes:       11,
			leaf:        "b8c61e4a",
			activePath:  []string{"4f1a9c2e", "8d3b6e10", "1a6f0d38", "5be29c47", "9e04b1f2", "d71c5a80", "6c0a7e93", "a4d8f217", "e93b40c5", "72f5d0b8", "b8c61e4a"},
			roots:       []string{"4f1a9c2e"},
			context:     []string{"e93b40c5", "6c0a7e93", "a4d8f217", "72f5d0b8", "b8c61e4a"},
			labels:      map[string]string{},
			compactions: 1,
		},
		{
			file:       "spec-branch.jsonl",
			nodes:      9,
			leaf:       "3456abcd",
			activePath: []string{"11aa22bb", "33cc44dd", "ab12cd34", "ef56ab78", "cd90ef12", "3456abcd"},
			roots:      []string{"11aa22bb"},
			branches:   []string{"33cc44dd"},
			context:    []string{"11aa22bb", "33cc44dd", "ab12cd34", "ef56ab78", "cd90ef12"},
			labels:     map[string]string{"77aa88bb": "go-draft"},
			name:       "Error-handling post",
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			ix := buildFile(t, filepath.Join("testdata", tt.file))
			tr := ix.Tree
			if !ix.HeaderOK || ix.Version != 3 {
				t.Fatalf("header ok=%v version=%d", ix.HeaderOK, ix.Version)
			}
			if tr.Nodes != tt.nodes {
				t.Errorf("nodes = %d, want %d", tr.Nodes, tt.nodes)
			}
			if tr.LeafID() != tt.leaf {
				t.Errorf("leaf = %s, want %s", tr.LeafID(), tt.leaf)
			}
			if got := tr.IDs(tr.ActivePath); !slices.Equal(got, tt.activePath) {
				t.Errorf("active path = %v, want %v", got, tt.activePath)
			}
			if got := tr.IDs(tr.Roots); !slices.Equal(got, tt.roots) {
				t.Errorf("roots = %v, want %v", got, tt.roots)
			}
			if got := tr.IDs(tr.BranchPoints); !slices.Equal(got, tt.branches) && !(len(got) == 0 && len(tt.branches) == 0) {
				t.Errorf("branch points = %v, want %v", got, tt.branches)
			}
			if got := tr.IDs(tr.Context); !slices.Equal(got, tt.context) {
				t.Errorf("context = %v, want %v", got, tt.context)
			}
			if len(tr.Labels) != len(tt.labels) {
				t.Errorf("labels = %v, want %v", tr.Labels, tt.labels)
			}
			for k, v := range tt.labels {
				if tr.Labels[k] != v {
					t.Errorf("label[%s] = %q, want %q", k, tr.Labels[k], v)
				}
			}
			if tr.Name != tt.name {
				t.Errorf("name = %q, want %q", tr.Name, tt.name)
			}
			if len(tr.Compactions) != tt.compactions {
				t.Errorf("compactions = %d, want %d", len(tr.Compactions), tt.compactions)
			}
			if len(ix.Malformed) != 0 || ix.Tail != nil {
				t.Errorf("malformed %v tail %v", ix.Malformed, ix.Tail)
			}
		})
	}
}
