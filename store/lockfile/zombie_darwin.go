package lockfile

import "golang.org/x/sys/unix"

// sZomb is a process that has exited and waits to be reaped
// (<sys/proc.h>).
const sZomb = 5

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err == nil && kp.Proc.P_stat == sZomb
}
