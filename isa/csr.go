package isa

import (
	"fmt"
	"strconv"
)

// csrNames maps CSR numbers to the names GNU binutils 2.40 prints (checked
// by testdata/csr.golden). Numbered families are added by init.
var csrNames = map[uint16]string{
	0x001: "fflags", 0x002: "frm", 0x003: "fcsr",
	0x008: "vstart", 0x009: "vxsat", 0x00a: "vxrm", 0x00f: "vcsr", 0x015: "seed",
	0x100: "sstatus", 0x104: "sie", 0x105: "stvec", 0x106: "scounteren", 0x10a: "senvcfg",
	0x114: "sieh", 0x140: "sscratch", 0x141: "sepc", 0x142: "scause", 0x143: "stval",
	0x144: "sip", 0x14d: "stimecmp", 0x150: "siselect", 0x151: "sireg", 0x154: "siph",
	0x15c: "stopei", 0x15d: "stimecmph", 0x180: "satp", 0x5a8: "scontext",
	0x200: "vsstatus", 0x204: "vsie", 0x205: "vstvec", 0x214: "vsieh", 0x240: "vsscratch",
	0x241: "vsepc", 0x242: "vscause", 0x243: "vstval", 0x244: "vsip", 0x24d: "vstimecmp",
	0x250: "vsiselect", 0x251: "vsireg", 0x254: "vsiph", 0x25c: "vstopei", 0x25d: "vstimecmph",
	0x280: "vsatp",
	0x300: "mstatus", 0x301: "misa", 0x302: "medeleg", 0x303: "mideleg", 0x304: "mie",
	0x305: "mtvec", 0x306: "mcounteren", 0x308: "mvien", 0x309: "mvip", 0x30a: "menvcfg",
	0x310: "mstatush", 0x313: "midelegh", 0x314: "mieh", 0x318: "mvienh", 0x319: "mviph",
	0x31a: "menvcfgh", 0x320: "mcountinhibit", 0x340: "mscratch", 0x341: "mepc",
	0x342: "mcause", 0x343: "mtval", 0x344: "mip", 0x34a: "mtinst", 0x34b: "mtval2",
	0x350: "miselect", 0x351: "mireg", 0x354: "miph", 0x35c: "mtopei",
	0x600: "hstatus", 0x602: "hedeleg", 0x603: "hideleg", 0x604: "hie", 0x605: "htimedelta",
	0x606: "hcounteren", 0x607: "hgeie", 0x608: "hvien", 0x609: "hvictl", 0x60a: "henvcfg",
	0x613: "hidelegh", 0x615: "htimedeltah", 0x618: "hvienh", 0x61a: "henvcfgh",
	0x643: "htval", 0x644: "hip", 0x645: "hvip", 0x646: "hviprio1", 0x647: "hviprio2",
	0x64a: "htinst", 0x655: "hviph", 0x656: "hviprio1h", 0x657: "hviprio2h", 0x680: "hgatp",
	0x6a8: "hcontext", 0x747: "mseccfg", 0x757: "mseccfgh",
	0x7a0: "tselect", 0x7a1: "tdata1", 0x7a2: "tdata2", 0x7a3: "tdata3", 0x7a4: "tinfo",
	0x7a5: "tcontrol", 0x7a8: "mcontext", 0x7aa: "mscontext",
	0x7b0: "dcsr", 0x7b1: "dpc", 0x7b2: "dscratch0", 0x7b3: "dscratch1",
	0xb00: "mcycle", 0xb02: "minstret", 0xb80: "mcycleh", 0xb82: "minstreth",
	0xc00: "cycle", 0xc01: "time", 0xc02: "instret", 0xc20: "vl", 0xc21: "vtype", 0xc22: "vlenb",
	0xc80: "cycleh", 0xc81: "timeh", 0xc82: "instreth",
	0xda0: "scountovf", 0xdb0: "stopi", 0xe12: "hgeip", 0xeb0: "vstopi",
	0xf11: "mvendorid", 0xf12: "marchid", 0xf13: "mimpid", 0xf14: "mhartid",
	0xf15: "mconfigptr", 0xfb0: "mtopi",
}

var csrByName = map[string]uint16{}

func init() {
	family := func(base uint16, first, last int, format string) {
		for n := first; n <= last; n++ {
			csrNames[base+uint16(n)] = fmt.Sprintf(format, n)
		}
	}
	family(0x10c, 0, 3, "sstateen%d")
	family(0x30c, 0, 3, "mstateen%d")
	family(0x31c, 0, 3, "mstateen%dh")
	family(0x60c, 0, 3, "hstateen%d")
	family(0x61c, 0, 3, "hstateen%dh")
	family(0x320, 3, 31, "mhpmevent%d")
	family(0x720, 3, 31, "mhpmevent%dh")
	family(0x3a0, 0, 15, "pmpcfg%d")
	family(0x3b0, 0, 63, "pmpaddr%d")
	family(0xb00, 3, 31, "mhpmcounter%d")
	family(0xb80, 3, 31, "mhpmcounter%dh")
	family(0xc00, 3, 31, "hpmcounter%d")
	family(0xc80, 3, 31, "hpmcounter%dh")
	for n, name := range csrNames {
		csrByName[name] = n
	}
}

// CSRName returns the assembler name of CSR number n, or its number in hex
// ("0x7c0") if it has none.
func CSRName(n uint16) string {
	if name, ok := csrNames[n]; ok {
		return name
	}
	return "0x" + strconv.FormatUint(uint64(n), 16)
}

// CSRByName returns the number of the CSR called name ("mstatus", "fcsr").
func CSRByName(name string) (uint16, bool) {
	n, ok := csrByName[name]
	return n, ok
}
