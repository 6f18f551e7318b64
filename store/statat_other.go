//go:build !linux

package store

import "clawvault-tui/model"

// dirStatter is Linux's fstatat; elsewhere names are stat'ed by path.
type dirStatter struct{}

func openDirStatter(FS, string) *dirStatter { return nil }

func (*dirStatter) close() {}

func (*dirStatter) lstatAt(string) (model.DirFile, error) { panic("unreachable: no dirStatter here") }
