//go:build !linux

package syscalls

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// Fallbacks for non-Linux hosts: metadata from fs.FileInfo only, and no
// terminals.

func hostFileClock() int64 { return time.Now().UnixNano() }

func hostStat(fi fs.FileInfo) statInfo { return fallbackStat(fi) }

func hostTermios(*os.File) ([]byte, error) { return nil, errors.New("not a terminal") }

func hostWinsize(*os.File) ([]byte, error) { return nil, errors.New("not a terminal") }

func hostIsTerminal(*os.File) bool { return false }

func hostSetAppend(*os.File, bool) error { return nil }

func hostUtimens(f *os.File, times [2]timespec) error {
	var t [2]time.Time // the zero time leaves a time unchanged
	for i, ts := range times {
		if ts.nsec != utimeOmit {
			t[i] = time.Unix(ts.sec, ts.nsec)
		}
	}
	return os.Chtimes(f.Name(), t[0], t[1])
}

func hostStatfs(*os.File) (statfsInfo, error) {
	return statfsInfo{typ: 0xef53, bsize: 4096, namelen: 255, frsize: 4096}, nil
}

func hostFallocate(f *os.File, mode uint32, off, n int64) error {
	if mode != 0 {
		return errors.New("operation not supported")
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if off+n > fi.Size() {
		return f.Truncate(off + n)
	}
	return nil
}

// hostFD is a host descriptor a ppoll or pselect6 waits on.
type hostFD struct {
	f               *os.File
	events, revents uint32
}

// hostPoll cannot ask a host other than Linux: every descriptor is ready
// for what it was asked.
func hostPoll(fds []hostFD, ns int64) bool {
	for i := range fds {
		fds[i].revents = fds[i].events
	}
	return len(fds) > 0
}

// hostDup reopens f by name (no descriptor duplication here).
func hostDup(f *os.File) (*os.File, error) { return os.OpenFile(f.Name(), os.O_RDWR, 0) }

// hostCapSets: a host other than Linux has no capability sets to report.
func hostCapSets() capSets { return capSets{bnd: capAll} }

// hostUmask is the usual default: other hosts run no guest file system.
func hostUmask() uint32 { return 0o022 }
