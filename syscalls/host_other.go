//go:build !linux

package syscalls

import (
	"errors"
	"io/fs"
	"os"
)

// Fallbacks for non-Linux hosts: metadata from fs.FileInfo only, and no
// terminals.

func hostStat(fi fs.FileInfo) statInfo { return fallbackStat(fi) }

func hostIno(fs.FileInfo) uint64 { return 0 }

func hostAccess(path string, mode uint32) error {
	_, err := os.Stat(path)
	return err
}

func hostTermios(*os.File) ([]byte, error) { return nil, errors.New("not a terminal") }

func hostWinsize(*os.File) ([]byte, error) { return nil, errors.New("not a terminal") }

func hostIsTerminal(*os.File) bool { return false }

func hostSetAppend(*os.File, bool) error { return nil }
