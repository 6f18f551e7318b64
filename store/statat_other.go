//go:build !linux

package store

import (
	"io/fs"

	"clawvault-tui/model"
)

// dirStatter is Linux's fstatat; elsewhere names are stat'ed by path.
type dirStatter struct{}

func openDirStatter(FS, string) *dirStatter { return nil }

func (*dirStatter) close() {}

func (*dirStatter) lstatAt(string) (model.DirFile, error) { panic("unreachable: no dirStatter here") }

// readDirFast is fsys.ReadDir: the one-slice listing is Linux's.
func readDirFast(fsys FS, dir string) ([]fs.DirEntry, error) { return fsys.ReadDir(dir) }
