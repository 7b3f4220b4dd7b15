//go:build unix

package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lockRunDir takes the lock that marks run directory dir as in use by a
// live run: an flock on a file outside the guest root (so guests do not
// see it), which the kernel releases when the process ends, however it
// ends. held is false when another run holds it. stale is true when the
// lock file was left behind: a run of this code that took dir did not
// reach Close (it was killed), so a dir that exists is a leftover.
func lockRunDir(dir string) (lock *os.File, held, stale bool, err error) {
	locks := filepath.Join(os.TempDir(), "rvsim-rundir-locks")
	if err := os.MkdirAll(locks, 0o777); err != nil {
		return nil, false, false, err
	}
	sum := sha256.Sum256([]byte(dir))
	name := filepath.Join(locks, hex.EncodeToString(sum[:12])+".lock")
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		created := err == nil
		if errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(name, os.O_RDWR, 0)
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed by its owner's Close meanwhile
			}
		}
		if err != nil {
			return nil, false, false, err
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, false, false, nil
			}
			return nil, false, false, err
		}
		// The lock is ours if the file is still the one at name (its
		// owner's Close unlinks it before unlocking).
		var a, b unix.Stat_t
		if unix.Fstat(int(f.Fd()), &a) != nil || unix.Stat(name, &b) != nil || a.Ino != b.Ino || a.Dev != b.Dev {
			f.Close()
			continue
		}
		return f, true, !created, nil
	}
}

// unlockRunDir releases a lock of lockRunDir (after the directory is gone).
func unlockRunDir(lock *os.File) {
	if lock != nil {
		os.Remove(lock.Name())
		lock.Close()
	}
}
