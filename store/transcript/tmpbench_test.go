package transcript

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"
)

func BenchmarkTmpIndex(b *testing.B) {
	path := os.Getenv("BIGFILE")
	if path == "" {
		b.Skip()
	}
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	b.Run("newlines", func(b *testing.B) {
		for b.Loop() {
			f, _ := os.Open(path)
			buf := make([]byte, 1<<20)
			n := 0
			for {
				m, err := f.Read(buf)
				n += bytes.Count(buf[:m], []byte{'\n'})
				if err == io.EOF {
					break
				}
			}
			f.Close()
		}
	})
	for _, w := range []int{1, 2} {
		b.Run("index-w"+string(rune('0'+w)), func(b *testing.B) {
			for b.Loop() {
				f, _ := os.Open(path)
				ix, err := Build(context.Background(), path, f, fi.Size(), Options{Workers: w})
				if err != nil || len(ix.Malformed) > 0 {
					b.Fatal(err, len(ix.Malformed))
				}
				f.Close()
			}
		})
	}
}
