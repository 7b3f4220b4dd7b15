//go:build !linux

package syscalls

import (
	"errors"
	"os"
)

// The file-system sandbox holds host directories open and walks paths
// with openat(2) on them, O_PATH and AT_EMPTY_PATH (sandbox_linux.go):
// other hosts cannot run a Linux process. These definitions only let the
// package build there; New fails.

const (
	hostOPath      = 0
	hostONonblock  = 0
	hostODirectory = 0
	maxRetries     = 0
)

var errNoSandbox = errors.New("the file-system sandbox needs a Linux host")

type node struct{}

func (n *node) isDir() bool                  { return false }
func (n *node) isLink() bool                 { return false }
func (n *node) isFIFO() bool                 { return false }
func (n *node) isReg() bool                  { return false }
func (n *node) nlink() uint64                { return 0 }
func (n *node) id() fileID                   { return fileID{} }
func (n *node) stat() statInfo               { return statInfo{} }
func (n *node) close()                       {}
func borrow(*os.File) (*node, Errno)         { return nil, ENOSYS }
func dupNode(*node) (*node, error)           { return nil, errNoSandbox }
func idAt(*node, string) fileID              { return fileID{} }
func readlinkNode(*node) (string, error)     { return "", errNoSandbox }
func chmodNode(*node, uint32) error          { return errNoSandbox }
func chownNode(*node, int, int) error        { return errNoSandbox }
func utimensNode(*node, [2]timespec) error   { return errNoSandbox }
func accessNode(*node, uint32, uint32) error { return errNoSandbox }
func statfsNode(*node) (statfsInfo, error)   { return statfsInfo{}, errNoSandbox }
func raced(error) bool                       { return false }

type sandboxFS struct{ cwdN, rootN *node }

func (k *Kernel) openSandbox() error                          { return errNoSandbox }
func (k *Kernel) closeSandbox()                               {}
func (k *Kernel) parentID(*node) fileID                       { return fileID{} }
func (k *Kernel) guestPathOf(_ *node, fallback string) string { return fallback }
func (k *Kernel) pathOf(*node) (string, bool, bool)           { return "", false, false }
func (k *Kernel) chrooted() bool                              { return false }
func (k *Kernel) cwdPath() string                             { return k.cwd }
func (k *Kernel) setRoot(*node) Errno                         { return ENOSYS }
func (k *Kernel) enterRunRoot() Errno                         { return ENOSYS }
func (k *Kernel) hostPath(*lookup) string                     { return "" }

type lookup struct {
	guest, name string
	parent, obj *node
	dirReq      bool
}

func (l *lookup) close()                             {}
func (l *lookup) take(n *node) *node                 { return n }
func (l *lookup) open(int, uint32) (*os.File, error) { return nil, errNoSandbox }

func (k *Kernel) resolve(int32, string, bool) (*lookup, Errno)         { return nil, ENOSYS }
func (k *Kernel) resolveExisting(int32, string, bool) (*lookup, Errno) { return nil, ENOSYS }
func (k *Kernel) walk(int32, string, bool) (*lookup, Errno)            { return nil, ENOSYS }
func (k *Kernel) objWritable(*lookup) bool                             { return false }
func (k *Kernel) checkWrite(...*lookup) Errno                          { return EACCES }
func (k *Kernel) refused(string)                                       {}

func mkdirIn(*lookup, uint32) error         { return errNoSandbox }
func ownIn(*lookup, int, int)               {}
func setgidDir(*lookup) bool                { return false }
func symlinkIn(string, *lookup) error       { return errNoSandbox }
func mknodIn(*lookup, uint32) error         { return errNoSandbox }
func holdIn(*lookup) (*os.File, error)      { return nil, errNoSandbox }
func unlinkIn(*lookup, bool) error          { return errNoSandbox }
func renameIn(*lookup, *lookup, bool) error { return errNoSandbox }
func linkNames(*lookup, *lookup) error      { return errNoSandbox }
func linkFile(*os.File, *lookup) error      { return errNoSandbox }

func (k *Kernel) forkSandbox() (sandboxFS, error) { return sandboxFS{}, nil }

func (k *Kernel) removePrivateShm() {}

// isRootDir: other hosts run no guest file system.
func (k *Kernel) isRootDir(*lookup) bool { return false }
