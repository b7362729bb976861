//go:build linux

package rsp

import (
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// memfdCreate is the memfd_create system call number, by architecture.
func memfdCreate() uintptr {
	switch runtime.GOARCH {
	case "amd64":
		return 319
	case "arm64", "riscv64", "loong64":
		return 279
	case "386":
		return 356
	case "arm":
		return 385
	case "ppc64", "ppc64le":
		return 360
	case "s390x":
		return 350
	}
	return 0
}

const (
	mfdCloexec      = 0x1
	mfdAllowSealing = 0x2
	fAddSeals       = 1024 + 9
	fSealSeal       = 0x1
	fSealShrink     = 0x2
	fSealGrow       = 0x4
	fSealWrite      = 0x8
)

// newRef puts content where a plugin can read it by reference: on Linux
// a sealed memfd (no write, grow or shrink, no further seals), passed as
// descriptor 3 and named /dev/fd/3; when memfds are not available, a
// 0600 file in a private temporary directory. The returned function
// releases it; the bytes live exactly as long as the call.
func newRef(content string) (path string, fd3 *os.File, release func(), err error) {
	if nr := memfdCreate(); nr != 0 {
		name, _ := syscall.BytePtrFromString("rsp-content")
		r, _, e := syscall.Syscall(nr, uintptr(unsafe.Pointer(name)), mfdCloexec|mfdAllowSealing, 0)
		if e == 0 {
			f := os.NewFile(r, "rsp-content")
			if err := fillSealed(f, content); err == nil {
				ro, err := os.Open("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
				if err == nil {
					f.Close()
					f = ro
				}
				return "/dev/fd/3", f, func() { f.Close() }, nil
			}
			f.Close()
		}
	}
	return tempRef(content)
}

func fillSealed(f *os.File, content string) error {
	if _, err := f.WriteString(content); err != nil {
		return err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return err
	}
	_, _, e := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fAddSeals, fSealShrink|fSealGrow|fSealWrite|fSealSeal)
	if e != 0 {
		return e
	}
	return nil
}
