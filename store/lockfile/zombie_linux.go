package lockfile

import (
	"bytes"
	"os"
	"strconv"
)

// zombie reports whether pid has exited and waits to be reaped: its state
// in /proc/<pid>/stat, the field after the command's closing parenthesis
// (a command may hold parentheses and spaces), is Z (or X, dead).
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return false
	}
	state := stat[i+2]
	return state == 'Z' || state == 'X'
}
