package syscalls

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// System-wide files of /proc and /sys that programs read to learn about
// the machine (how many CPUs, how much memory, how long it has been up)
// describe the simulated machine, consistently with the system calls
// that answer the same questions (sched_getaffinity: one CPU; sysinfo:
// 4 GiB; uname; the deterministic clock), never the host: otherwise a
// run would depend on the host it ran on (glibc's get_nprocs reads
// /sys/devices/system/cpu/online, and a program sizing its thread pool
// by it would run a different number of instructions). /proc/PID of any
// process but this one does not exist: there is no other.

// systemFiles maps a guest path to its generator.
var systemFiles = map[string]func(k *Kernel) []byte{
	"/proc/cpuinfo":                           (*Kernel).procCpuinfo,
	"/proc/meminfo":                           (*Kernel).procMeminfo,
	"/proc/stat":                              (*Kernel).procSysStat,
	"/proc/uptime":                            (*Kernel).procUptime,
	"/proc/loadavg":                           (*Kernel).procLoadavg,
	"/proc/version":                           func(*Kernel) []byte { return []byte(procVersion) },
	"/proc/sys/kernel/osrelease":              func(*Kernel) []byte { return []byte(release + "\n") },
	"/proc/sys/kernel/hostname":               func(k *Kernel) []byte { return []byte(cString([]byte(k.uts().node)) + "\n") },
	"/proc/sys/kernel/domainname":             func(k *Kernel) []byte { return []byte(cString([]byte(k.uts().domain)) + "\n") },
	"/proc/sys/fs/inotify/max_queued_events":  func(*Kernel) []byte { return []byte(strconv.Itoa(inotifyMaxQueued) + "\n") },
	"/proc/sys/fs/inotify/max_user_instances": func(*Kernel) []byte { return []byte(strconv.Itoa(inotifyMaxInstances) + "\n") },
	"/proc/sys/fs/inotify/max_user_watches":   func(*Kernel) []byte { return []byte(strconv.Itoa(inotifyMaxWatches) + "\n") },
	"/proc/sysvipc/shm":                       procSysvipcShm,
	"/proc/sysvipc/sem":                       procSysvipcSem,
	"/proc/sysvipc/msg":                       procSysvipcMsg,
	"/proc/sys/kernel/sem":                    func(*Kernel) []byte { return fmt.Appendf(nil, "%d\t%d\t%d\t%d\n", semMsl, semMns, semOpm, semMni) },
	"/proc/sys/kernel/msgmax":                 func(*Kernel) []byte { return []byte(strconv.Itoa(msgMax) + "\n") },
	"/proc/sys/kernel/msgmnb":                 func(*Kernel) []byte { return []byte(strconv.Itoa(msgMnb) + "\n") },
	"/proc/sys/kernel/msgmni":                 func(*Kernel) []byte { return []byte(strconv.Itoa(msgMni) + "\n") },
	"/proc/sys/kernel/shmmax":                 func(*Kernel) []byte { return []byte(strconv.FormatUint(shmMax, 10) + "\n") },
	"/proc/sys/kernel/shmall":                 func(*Kernel) []byte { return []byte(strconv.FormatUint(shmAll, 10) + "\n") },
	"/proc/sys/kernel/shmmni":                 func(*Kernel) []byte { return []byte(strconv.Itoa(shmMni) + "\n") },
	"/sys/devices/system/cpu/online":          oneCPU,
	"/sys/devices/system/cpu/possible":        oneCPU,
	"/sys/devices/system/cpu/present":         oneCPU,
}

// systemFile returns the generator of a system-wide file, or reports that
// g names another process's /proc directory (which does not exist).
func systemFile(g string, k *Kernel) (gen func(k *Kernel) []byte, ok bool, gone bool) {
	if gen, ok := systemFiles[g]; ok {
		return gen, true, false
	}
	rest, isProc := strings.CutPrefix(g, "/proc/")
	if !isProc {
		return nil, false, false
	}
	first, _, _ := strings.Cut(rest, "/")
	if pid, err := strconv.Atoi(first); err == nil && k.procView(g) == k && pid != int(k.pid) {
		return nil, false, true // no process of the run (the host's are not the guest's to see)
	}
	return nil, false, false
}

func oneCPU(*Kernel) []byte { return []byte("0\n") }

// procListing is /proc's listing as the guest sees it: the directory's
// own entries (the host's /proc, or a root's, usually empty) without the
// host's processes' directories, and with the run's processes' (zombies
// too) and the files rvsim generates.
func (k *Kernel) procListing(ents []dirent) []dirent {
	virtual := map[string]uint8{"self": dtLnk, "thread-self": dtLnk, "mounts": dtLnk}
	for _, pid := range k.runPIDs() {
		virtual[strconv.Itoa(int(pid))] = dtDir
	}
	for g := range systemFiles {
		if name, ok := strings.CutPrefix(g, "/proc/"); ok && !strings.Contains(name, "/") {
			virtual[name] = dtReg
		}
	}
	out := ents[:0]
	for _, d := range ents {
		if _, err := strconv.Atoi(d.name); err == nil {
			continue // another process (or the host's view of this one)
		}
		if _, ok := virtual[d.name]; ok {
			continue // listed below, as the guest sees it
		}
		out = append(out, d)
	}
	for name, typ := range virtual {
		out = append(out, dirent{k.procStatInfo("/proc/" + name).ino, typ, name})
	}
	sort.SliceStable(out[2:], func(i, j int) bool { return out[2+i].name < out[2+j].name })
	return out
}

// procVersion is linux_proc_banner filled in as uname reports the kernel.
var procVersion = fmt.Sprintf("Linux version %s (rvsim@%s) (rvsim) %s\n", release, nodeName, version)

// isaString is the hart's ISA as Linux riscv prints it (riscv_hwprobe
// reports the same extensions).
const isaString = "rv64imafdc_zicntr_zicond_zicsr_zifencei_zba_zbb_zbc_zbs"

// procCpuinfo is arch/riscv/kernel/cpu.c's c_show for the one hart.
func (k *Kernel) procCpuinfo() []byte {
	return []byte("processor\t: 0\nhart\t\t: 0\nisa\t\t: " + isaString + "\nmmu\t\t: sv39\n" +
		"mvendorid\t: 0x0\nmarchid\t\t: 0x0\nmimpid\t\t: 0x0\nhart isa\t: " + isaString + "\n\n")
}

// procMeminfo is meminfo_proc_show's first lines, for the 4 GiB sysinfo
// reports: free is what the process has not touched.
func (k *Kernel) procMeminfo() []byte {
	const totalKB = sysinfoTotalram >> 10
	usedKB := min(uint64(k.mem.Footprint())*PageSize>>10, totalKB)
	var b strings.Builder
	for _, l := range []struct {
		name string
		kb   uint64
	}{{"MemTotal", totalKB}, {"MemFree", totalKB - usedKB}, {"MemAvailable", totalKB - usedKB},
		{"Buffers", 0}, {"Cached", 0}, {"SwapCached", 0}, {"SwapTotal", 0}, {"SwapFree", 0}} {
		fmt.Fprintf(&b, "%-16s%8d kB\n", l.name+":", l.kb)
	}
	return []byte(b.String())
}

// ticks is ns in USER_HZ (100 Hz) clock ticks.
func ticks(ns int64) int64 { return ns / 1e7 }

// procSysStat is show_stat for one CPU: user time is the process's CPU
// time, the rest of the time since boot idle.
func (k *Kernel) procSysStat() []byte {
	mono, _ := k.now(clockMonotonic)
	real, _ := k.now(clockRealtime)
	user := ticks(k.cpuNS())
	idle := max(ticks(mono)-user, 0)
	cpu := fmt.Sprintf("%d 0 0 %d 0 0 0 0 0 0\n", user, idle)
	return []byte("cpu  " + cpu + "cpu0 " + cpu + "intr 0\n" +
		fmt.Sprintf("ctxt %d\nbtime %d\nprocesses 1\nprocs_running 1\nprocs_blocked 0\n", k.switches, (real-mono)/1e9) +
		"softirq 0 0 0 0 0 0 0 0 0 0 0\n")
}

// procUptime is uptime_proc_show: seconds since boot, and idle seconds.
func (k *Kernel) procUptime() []byte {
	mono, _ := k.now(clockMonotonic)
	idle := max(mono-k.cpuNS(), 0)
	return []byte(fmt.Sprintf("%d.%02d %d.%02d\n", mono/1e9, mono/1e7%100, idle/1e9, idle/1e7%100))
}

// procLoadavg is loadavg_proc_show: no load history, the threads of this
// process, the last thread id handed out.
func (k *Kernel) procLoadavg() []byte {
	return []byte(fmt.Sprintf("0.00 0.00 0.00 1/%d %d\n", len(k.threads), *k.nextTID-1))
}
