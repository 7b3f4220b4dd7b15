package test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProcSelf runs test/programs/linux/procself (static and dynamic),
// which prints /proc/self/maps, status and stat and checks cmdline, auxv
// and pthread_getattr_np itself, under rvsim and under qemu-riscv64. The
// addresses differ between the two, so the files are checked for the
// kernel's structure: every maps line parses, regions are sorted and
// disjoint, the [stack] line holds the program's sp, the program's own
// file is mapped; status has the fields in their formats; stat has its
// fields. rvsim's maps lines are also checked against the host's own
// /proc/self/maps for where the name column starts.
func TestProcSelf(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, variant := range []string{"linux", "linux-dyn"} {
		prog := linuxProg(t, variant, "procself")
		args := []string{prog, "one", "two words", ""}
		t.Run(variant+"/rvsim", func(t *testing.T) {
			r := runProcess(t, "", nil, rvsim, append([]string{"run"}, args...)...)
			require.Equal(t, 0, r.Status, r.Stderr)
			assert.Empty(t, r.Stderr)
			checkProcSelf(t, r.Stdout, prog, "procself", true)
		})
		// Started through a symbolic link, the process is named after
		// the link (Linux's comm is the name exec was given, 15 bytes at
		// most) and maps the file it leads to.
		t.Run(variant+"/rvsim/link", func(t *testing.T) {
			link := filepath.Join(t.TempDir(), "procself-by-another-name")
			require.NoError(t, os.Symlink(prog, link))
			r := runProcess(t, "", nil, rvsim, append([]string{"run", link}, args[1:]...)...)
			require.Equal(t, 0, r.Status, r.Stderr)
			assert.Empty(t, r.Stderr)
			checkProcSelf(t, r.Stdout, prog, "procself-by-ano", true)
		})
		t.Run(variant+"/qemu", func(t *testing.T) {
			r := runProcess(t, "", nil, qemu, append([]string{"-L", sysroot}, args...)...)
			require.Equal(t, 0, r.Status, r.Stderr)
			checkProcSelf(t, r.Stdout, prog, "procself", false)
		})
	}
}

var mapsLine = regexp.MustCompile(`^([0-9a-f]+)-([0-9a-f]+) ([r-][w-][x-][ps]) ([0-9a-f]{8,}) ([0-9a-f]{2}):([0-9a-f]{2}) (\d+) +(.*)$`)

// hostNameColumn is where the host kernel's /proc/self/maps starts a
// region's name (0-based byte offset).
func hostNameColumn(t *testing.T) int {
	f, err := os.Open("/proc/self/maps")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if i := strings.Index(sc.Text(), " /"); i > 0 && len(strings.Fields(sc.Text())[0]) < 40 {
			return strings.LastIndex(sc.Text()[:i+1], " ") + 1
		}
	}
	t.Fatal("no file mapping in the host's /proc/self/maps")
	return 0
}

// checkProcSelf checks procself's output (comm the process's name);
// kernel says whether the exact
// kernel layout (zero-padded addresses, name column, pid 1000 and the
// 52 fields of stat) is expected, which qemu's emulation does not give.
func checkProcSelf(t *testing.T, out, prog, comm string, kernel bool) {
	sections := map[string]string{}
	var results []string
	var sp uint64
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "== "):
			name := l[3:]
			var body []string
			for i++; i < len(lines) && lines[i] != "== end"; i++ {
				body = append(body, lines[i])
			}
			sections[name] = strings.Join(body, "\n")
		case strings.HasPrefix(l, "sp "):
			v, err := strconv.ParseUint(l[3:], 16, 64)
			require.NoError(t, err)
			sp = v
		case strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "FAIL"):
			results = append(results, l)
		}
	}
	assert.Equal(t, []string{"ok cmdline", "ok auxv", "ok stat maps", "ok pthread stack"}, results)

	// maps
	require.NotEmpty(t, sections["maps"])
	var prevEnd uint64
	stack, self := false, false
	nameCol := hostNameColumn(t)
	for _, l := range strings.Split(sections["maps"], "\n") {
		m := mapsLine.FindStringSubmatch(l)
		if !assert.NotNil(t, m, "maps line %q", l) {
			continue
		}
		lo, _ := strconv.ParseUint(m[1], 16, 64)
		hi, _ := strconv.ParseUint(m[2], 16, 64)
		assert.Less(t, lo, hi, l)
		assert.LessOrEqual(t, prevEnd, lo, "regions out of order or overlapping at %q", l)
		assert.Zero(t, lo%4096, l)
		prevEnd = hi
		name := m[8]
		if name == "[stack]" {
			stack = true
			assert.True(t, lo <= sp && sp < hi, "[stack] %q does not hold sp %#x", l, sp)
		}
		if name == prog && m[3][2] == 'x' {
			self = true
		}
		if kernel {
			assert.GreaterOrEqual(t, len(m[1]), 8, l)
			if name != "" {
				assert.Equal(t, nameCol, strings.Index(l, name), "name column of %q", l)
			} else {
				assert.True(t, strings.HasSuffix(l, " "+m[7]+" "), "anonymous line %q ends with the inode and a space", l)
			}
			if name == "" || strings.HasPrefix(name, "[") {
				assert.Equal(t, "00000000 00:00 0", m[4]+" "+m[5]+":"+m[6]+" "+m[7], l)
			} else {
				assert.NotEqual(t, "0", m[7], "file %q has an inode", l)
			}
		}
	}
	assert.True(t, stack, "no [stack] line")
	assert.True(t, self, "%s is not mapped executable", prog)

	// status
	status := map[string]string{}
	for _, l := range strings.Split(sections["status"], "\n") {
		k, v, ok := strings.Cut(l, ":\t")
		if assert.True(t, ok, "status line %q", l) {
			status[k] = v
		}
	}
	num := regexp.MustCompile(`^\d+$`)
	for _, k := range []string{"Tgid", "Pid", "PPid", "Threads"} {
		assert.Regexp(t, num, status[k], k)
	}
	assert.Equal(t, status["Tgid"], status["Pid"])
	assert.Regexp(t, `^R \(running\)$`, status["State"])
	assert.Regexp(t, `^\d+\t\d+\t\d+\t\d+$`, status["Uid"])
	assert.Regexp(t, `^\d+\t\d+\t\d+\t\d+$`, status["Gid"])
	for _, k := range []string{"VmPeak", "VmSize", "VmRSS", "VmData", "VmStk", "VmExe"} {
		assert.Regexp(t, `^ *\d+ kB$`, status[k], k)
	}
	for _, k := range []string{"SigPnd", "SigBlk", "SigIgn", "SigCgt", "CapEff"} {
		assert.Regexp(t, `^[0-9a-f]{16}$`, status[k], k)
	}
	// stat
	st := regexp.MustCompile(`^(\d+) \((.*)\) (\S) (-?\d+ ?)+$`).FindStringSubmatch(sections["stat"])
	if assert.NotNil(t, st, "stat %q", sections["stat"]) {
		assert.Equal(t, status["Pid"], st[1])
		assert.Equal(t, comm, st[2])
	}
	if kernel {
		assert.Equal(t, comm, status["Name"])
		assert.Equal(t, "1000", status["Pid"])
		assert.Equal(t, "1", status["Threads"])
		assert.Len(t, strings.Fields(sections["stat"]), 52)
		if st != nil {
			assert.Equal(t, "R", st[3]) // qemu shows 0
		}
	}
}
