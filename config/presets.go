package config

import (
	"fmt"
	"sort"
	"strings"
)

// preset is a named machine with the provenance of its values.
type preset struct {
	title  string
	source []string          // comment lines: where the machine comes from
	notes  map[string]string // "section.key" -> where the value comes from
	build  func() Machine
}

// sim-outorder's (SimpleScalar 3.0) default functional units, used where a
// paper built on SimpleScalar and does not state them: integer multiply 3
// cycles pipelined, divide 20 cycles unpipelined; FP add 2 cycles, FP
// multiply 4, FP divide 12 unpipelined (sqrt, 24 there, shares the divider
// here and takes its latency).
func simpleScalarFUs(ialu, imul, fpalu, fpmul, memports int) FUPool {
	return FUPool{
		IntALU:  Unit{Count: ialu, Latency: 1, Pipelined: true},
		IntMul:  Unit{Count: imul, Latency: 3, Pipelined: true},
		IntDiv:  Unit{Count: imul, Latency: 20, Pipelined: false},
		FPAdd:   Unit{Count: fpalu, Latency: 2, Pipelined: true},
		FPMul:   Unit{Count: fpmul, Latency: 4, Pipelined: true},
		FPDiv:   Unit{Count: fpmul, Latency: 12, Pipelined: false},
		MemPort: Unit{Count: memports, Latency: 1, Pipelined: true},
	}
}

var presets = map[string]*preset{
	"default": {
		title: "a contemporary 4-wide out-of-order core (rvsim's default)",
		source: []string{
			"rvsim's own default: a 4-wide out-of-order core of the size of an Arm Cortex-A72 or",
			"a medium BOOM, with split L1 caches, a unified L2 and DRAM at about 2 GHz.",
			"It is not taken from a paper; the other presets are.",
		},
		build: func() Machine {
			return Machine{
				Core: Core{
					FetchWidth: 4, FetchQueue: 16, DecodeWidth: 4, DecodeStages: 3, RenameWidth: 4,
					IssueWidth: 6, CommitWidth: 4, ROB: 128, IQ: 64, LQ: 48, SQ: 32, LSQ: 0,
					IntRegs: 180, FPRegs: 160, RedirectPenalty: 2, ForwardLatency: 3,
					DISEPenalty: 1, DISERedirectPenalty: -1, DeadlockCycles: 200000,
				},
				FU: FUPool{
					IntALU:  Unit{Count: 4, Latency: 1, Pipelined: true},
					IntMul:  Unit{Count: 1, Latency: 3, Pipelined: true},
					IntDiv:  Unit{Count: 1, Latency: 20, Pipelined: false},
					FPAdd:   Unit{Count: 2, Latency: 3, Pipelined: true},
					FPMul:   Unit{Count: 2, Latency: 4, Pipelined: true},
					FPDiv:   Unit{Count: 1, Latency: 12, Pipelined: false},
					MemPort: Unit{Count: 2, Latency: 1, Pipelined: true},
				},
				BPred: BPred{Kind: "tournament", BimodalEntries: 4096, GshareEntries: 4096, HistoryBits: 12,
					MetaEntries: 4096, BTBEntries: 2048, BTBAssoc: 4, RASDepth: 16},
				L1I:    Cache{Size: 32 << 10, Assoc: 4, Line: 64, Latency: 2, MSHRs: 4},
				L1D:    Cache{Size: 32 << 10, Assoc: 8, Line: 64, Latency: 3, MSHRs: 8},
				L2:     Cache{Size: 1 << 20, Assoc: 8, Line: 64, Latency: 12, MSHRs: 16},
				Memory: Memory{Latency: 150},
			}
		},
	},

	"sonicboom": {
		title: "SonicBOOM (BOOM v3) MegaBoomConfig: a 4-wide out-of-order RISC-V core",
		source: []string{
			"Source: J. Zhao, B. Korpan, A. Gonzalez, K. Asanovic, \"SonicBOOM: The 3rd Generation",
			"Berkeley Out-of-Order Machine\", CARRV 2020 (6.2 CoreMark/MHz, TAGE predictor, dual-issue",
			"loads), and the BOOM v3 generator it describes, github.com/riscv-boom/riscv-boom:",
			"src/main/scala/common/config-mixins.scala class WithNMegaBooms (chipyard's",
			"MegaBoomConfig), src/main/scala/common/parameters.scala (BoomCoreParams defaults),",
			"src/main/scala/ifu/bpd/{btb,bim,tage}.scala (predictor defaults); the L2 is chipyard's",
			"default InclusiveCache (docs/Customization/Memory-Hierarchy.rst). Values marked",
			"\"assumed\" are not stated in these; \"approx\" marks a BOOM structure rvsim's model",
			"lacks and the nearest knob chosen (docs/TIMING.md, \"Against a real core\").",
		},
		notes: map[string]string{
			"core.fetch_width":      "approx: fetchWidth = 8 16-bit parcels, fetchBytes = 4*4 (a 16-byte packet: 4 to 8 instructions with RVC); the model counts instructions and ends a block only at a taken branch or an I-cache line, so 4",
			"core.fetch_queue":      "WithNMegaBooms: numFetchBufferEntries = 32",
			"core.decode_width":     "WithNMegaBooms: decodeWidth = 4",
			"core.decode_stages":    "assumed: BOOM's decode, rename and dispatch stages (BOOM docs, pipeline overview)",
			"core.rename_width":     "WithNMegaBooms: dispatchWidth = 4",
			"core.issue_width":      "WithNMegaBooms: issueWidth 2 (mem) + 4 (int) + 2 (fp) = 8",
			"core.commit_width":     "assumed: coreWidth = decodeWidth = 4 (the ROB retires a row of coreWidth per cycle)",
			"core.rob":              "WithNMegaBooms: numRobEntries = 128",
			"core.iq":               "approx: split queues mem 24 + int 40 + fp 32 = 96 (WithNMegaBooms issueParams); the model has one unified queue",
			"core.lq":               "WithNMegaBooms: numLdqEntries = 32",
			"core.sq":               "WithNMegaBooms: numStqEntries = 32",
			"core.lsq":              "WithNMegaBooms: separate LDQ and STQ, no unified limit",
			"core.int_regs":         "WithNMegaBooms: numIntPhysRegisters = 128",
			"core.fp_regs":          "WithNMegaBooms: numFpPhysRegisters = 128",
			"core.redirect_penalty": "assumed: branch unit to front-end redirect; the refill follows from l1i.latency and decode_stages",
			"core.forward_latency":  "assumed: as an L1 hit (l1d.latency)",
			"fu.int_alu.count":      "WithNMegaBooms: int issueWidth = 4, one ALU per int issue port",
			"fu.int_alu.latency":    "BOOM docs, execution stages: ALU results bypass to dependent instructions (a 1-cycle ALU)",
			"fu.int_alu.pipelined":  "BOOM docs: ALUs are pipelined",
			"fu.int_mul.count":      "assumed: one pipelined multiplier (BOOM puts it behind one int issue port)",
			"fu.int_mul.pipelined":  "BOOM's imul is a pipelined unit (imulLatency stages)",
			"fu.int_div.count":      "assumed: one divider, behind one int issue port (BOOM docs, execution stages)",
			"fu.int_div.pipelined":  "BOOM docs, execution stages: the divider is unpipelined (busy during operation)",
			"fu.fp_add.pipelined":   "hardfloat FMA pipelines",
			"fu.fp_mul.pipelined":   "hardfloat FMA pipelines",
			"fu.fp_div.count":       "assumed: one divide/sqrt unit",
			"fu.fp_div.pipelined":   "assumed: iterative, unpipelined",
			"fu.mem_port.latency":   "assumed: one cycle of address generation before the D-cache access",
			"fu.mem_port.pipelined": "assumed: a new access every cycle per port",
			"fu.int_mul.latency":    "BoomCoreParams default imulLatency = 3",
			"fu.int_div.latency":    "assumed: rocket MulDiv iterative divider, one quotient bit per cycle (divEarlyOut not modelled)",
			"fu.fp_add.count":       "WithNMegaBooms: fp issueWidth = 2",
			"fu.fp_add.latency":     "WithNMegaBooms: FPUParams sfmaLatency = 4, dfmaLatency = 4 (adds use the FMA pipe)",
			"fu.fp_mul.count":       "WithNMegaBooms: fp issueWidth = 2",
			"fu.fp_mul.latency":     "WithNMegaBooms: FPUParams sfmaLatency = 4, dfmaLatency = 4",
			"fu.fp_div.latency":     "assumed: FPUParams divSqrt = true, an iterative unit",
			"fu.mem_port.count":     "WithNMegaBooms: mem issueWidth = 2; the paper's dual-issue loads (two D-cache banks)",
			"bpred.kind":            "approx: SonicBOOM's TAGE-L (WithTAGELBPD: BIM + BTB + 6-table TAGE with up to 64 bits of history + loop predictor); the nearest kind here is a tournament of bimodal and gshare",
			"bpred.bimodal_entries": "bim.scala BoomBIMParams nSets = 2048, a counter per fetch slot: 2048 x 8",
			"bpred.gshare_entries":  "approx: tage.scala BoomTageParams tables of 128+128+256+256+128+128 sets, a counter per fetch slot: 1024 x 8",
			"bpred.history_bits":    "approx: TAGE folds up to globalHistoryLength = 64 bits; gshare takes log2(gshare_entries)",
			"bpred.meta_entries":    "assumed: TAGE has no chooser (the longest matching table provides)",
			"bpred.btb_entries":     "btb.scala BoomBTBParams nSets = 128, nWays = 2, a target per fetch slot: 128 x 2 x 8",
			"bpred.btb_assoc":       "btb.scala BoomBTBParams nWays = 2",
			"bpred.ras_depth":       "BoomCoreParams default numRasEntries = 32",
			"l1i.size":              "WithNMegaBooms: ICacheParams nSets = 64, nWays = 8, 64-byte lines = 32 KiB",
			"l1i.assoc":             "WithNMegaBooms: ICacheParams nWays = 8",
			"l1i.line":              "rocket-chip CacheBlockBytes = 64",
			"l1i.latency":           "assumed: the I-cache answers in fetch stage F2, the packet enters the fetch buffer after F3",
			"l1i.mshrs":             "BOOM docs: the I-cache does not support hit-under-miss (one miss at a time)",
			"l1d.size":              "WithNMegaBooms: DCacheParams nSets = 64, nWays = 8, 64-byte lines = 32 KiB",
			"l1d.assoc":             "WithNMegaBooms: DCacheParams nWays = 8",
			"l1d.line":              "rocket-chip CacheBlockBytes = 64",
			"l1d.latency":           "assumed: a 4-cycle load-to-use with address generation (fu.mem_port.latency 1)",
			"l1d.mshrs":             "WithNMegaBooms: DCacheParams nMSHRs = 8",
			"l2.size":               "chipyard Memory-Hierarchy.rst: the default InclusiveCache is 512 KiB",
			"l2.assoc":              "chipyard Memory-Hierarchy.rst: 8-way set-associative",
			"l2.line":               "rocket-chip CacheBlockBytes = 64",
			"l2.latency":            "assumed",
			"l2.mshrs":              "assumed",
			"memory.latency":        "assumed: a DRAM at about 100 ns; CoreMark fits in the L1 caches, so it hardly matters here",
		},
		build: func() Machine {
			return Machine{
				Core: Core{
					FetchWidth: 4, FetchQueue: 32, DecodeWidth: 4, DecodeStages: 3, RenameWidth: 4,
					IssueWidth: 8, CommitWidth: 4, ROB: 128, IQ: 96, LQ: 32, SQ: 32, LSQ: 0,
					IntRegs: 128, FPRegs: 128, RedirectPenalty: 2, ForwardLatency: 3,
					DISEPenalty: 1, DISERedirectPenalty: -1, DeadlockCycles: 200000,
				},
				FU: FUPool{
					IntALU:  Unit{Count: 4, Latency: 1, Pipelined: true},
					IntMul:  Unit{Count: 1, Latency: 3, Pipelined: true},
					IntDiv:  Unit{Count: 1, Latency: 64, Pipelined: false},
					FPAdd:   Unit{Count: 2, Latency: 4, Pipelined: true},
					FPMul:   Unit{Count: 2, Latency: 4, Pipelined: true},
					FPDiv:   Unit{Count: 1, Latency: 20, Pipelined: false},
					MemPort: Unit{Count: 2, Latency: 1, Pipelined: true},
				},
				BPred: BPred{Kind: "tournament", BimodalEntries: 16384, GshareEntries: 8192, HistoryBits: 13,
					MetaEntries: 4096, BTBEntries: 2048, BTBAssoc: 2, RASDepth: 32},
				L1I:    Cache{Size: 32 << 10, Assoc: 8, Line: 64, Latency: 3, MSHRs: 1},
				L1D:    Cache{Size: 32 << 10, Assoc: 8, Line: 64, Latency: 3, MSHRs: 8},
				L2:     Cache{Size: 512 << 10, Assoc: 8, Line: 64, Latency: 14, MSHRs: 16},
				Memory: Memory{Latency: 100},
			}
		},
	},

	"hpp": {
		title: "hardware path profiling baseline (hardware-path-profiling.md, Table 4)",
		source: []string{
			"Source: hardware-path-profiling.md, section 7, Table 4 \"Baseline Processor Model\",",
			"a SimpleScalar (sim-outorder) machine. Values marked \"Table 4\" are the paper's; values",
			"marked \"assumed\" are not stated there and take sim-outorder's defaults or a neutral choice.",
		},
		notes: map[string]string{
			"core.fetch_width":      `Table 4: "Out-of-Order issue of up to 4 instructions per cycle"`,
			"core.fetch_queue":      `Table 4: "16 entry IFQ"`,
			"core.decode_width":     "Table 4: 4-wide",
			"core.decode_stages":    "assumed: sim-outorder has one stage between fetch and dispatch",
			"core.rename_width":     "Table 4: 4-wide",
			"core.issue_width":      `Table 4: "up to 4 instructions per cycle"`,
			"core.commit_width":     "Table 4: 4-wide",
			"core.rob":              `Table 4: "128 entry reorder buffer"`,
			"core.iq":               "assumed: sim-outorder's RUU is both ROB and reservation stations",
			"core.lq":               `Table 4: "64 entry LSQ" (see lsq)`,
			"core.sq":               `Table 4: "64 entry LSQ" (see lsq)`,
			"core.lsq":              `Table 4: "64 entry LSQ", unified`,
			"core.int_regs":         "assumed: results live in the RUU, so no separate limit (32 + rob)",
			"core.fp_regs":          "assumed: as int_regs",
			"core.redirect_penalty": `Table 4: "3 cycle branch mis-prediction latency"`,
			"core.forward_latency":  "assumed: one cycle, as an L1 hit",
			"fu.int_alu.count":      `Table 4: "4 integer ALUs"`,
			"fu.int_mul.count":      `Table 4: "2 integer MULT/DIV units" (shared there, separate pools here)`,
			"fu.int_div.count":      `Table 4: "2 integer MULT/DIV units" (shared there, separate pools here)`,
			"fu.fp_add.count":       `Table 4: "4 floating-point units"`,
			"fu.fp_mul.count":       `Table 4: "2 floating-point MULT/DIV units" (shared there)`,
			"fu.fp_div.count":       `Table 4: "2 floating-point MULT/DIV units" (shared there)`,
			"fu.mem_port.count":     "assumed: sim-outorder default -res:memport 2",
			"fu.int_mul.latency":    "assumed: sim-outorder IntMULT 3 cycles",
			"fu.int_div.latency":    "assumed: sim-outorder IntDIV 20 cycles, issue every 19",
			"fu.fp_add.latency":     "assumed: sim-outorder FloatADD 2 cycles",
			"fu.fp_mul.latency":     "assumed: sim-outorder FloatMULT 4 cycles",
			"fu.fp_div.latency":     "assumed: sim-outorder FloatDIV 12 cycles (FloatSQRT 24 there)",
			"bpred.kind":            `Table 4: "Combined: 12-bit (8K entry) gshare/(8K entry) bimodal predictor with 1K meta predictor"`,
			"bpred.bimodal_entries": `Table 4: "(8K entry) bimodal"`,
			"bpred.gshare_entries":  `Table 4: "12-bit (8K entry) gshare"`,
			"bpred.history_bits":    `Table 4: "12-bit" gshare`,
			"bpred.meta_entries":    `Table 4: "1K meta predictor"`,
			"bpred.btb_entries":     `Table 4: "2K entry, 4-way associative BTB"`,
			"bpred.btb_assoc":       `Table 4: "2K entry, 4-way associative BTB"`,
			"bpred.ras_depth":       `Table 4: "32 entry return address stack"`,
			"l1i.size":              `Table 4: "32KB direct mapped L1 instruction and data caches with 32 byte blocks"`,
			"l1i.assoc":             "Table 4: direct mapped",
			"l1i.line":              "Table 4: 32 byte blocks",
			"l1i.latency":           `Table 4: "(1 cycle latency)"`,
			"l1i.mshrs":             "assumed",
			"l1d.size":              `Table 4: "32KB direct mapped L1 instruction and data caches with 32 byte blocks"`,
			"l1d.assoc":             "Table 4: direct mapped",
			"l1d.line":              "Table 4: 32 byte blocks",
			"l1d.latency":           `Table 4: "(1 cycle latency)"`,
			"l1d.mshrs":             "assumed",
			"l2.size":               `Table 4: "512KB 4-way set associative unified L2 cache"`,
			"l2.assoc":              "Table 4: 4-way",
			"l2.line":               "assumed: sim-outorder's default ul2 block size",
			"l2.latency":            `Table 4: "(10 cycle latency)"`,
			"l2.mshrs":              "assumed",
			"memory.latency":        `Table 4: "100 cycle memory latency"`,
		},
		build: func() Machine {
			return Machine{
				Core: Core{
					FetchWidth: 4, FetchQueue: 16, DecodeWidth: 4, DecodeStages: 1, RenameWidth: 4,
					IssueWidth: 4, CommitWidth: 4, ROB: 128, IQ: 128, LQ: 64, SQ: 64, LSQ: 64,
					IntRegs: 160, FPRegs: 160, RedirectPenalty: 3, ForwardLatency: 1,
					DISEPenalty: 1, DISERedirectPenalty: -1, DeadlockCycles: 200000,
				},
				FU: simpleScalarFUs(4, 2, 4, 2, 2),
				BPred: BPred{Kind: "tournament", BimodalEntries: 8192, GshareEntries: 8192, HistoryBits: 12,
					MetaEntries: 1024, BTBEntries: 2048, BTBAssoc: 4, RASDepth: 32},
				L1I:    Cache{Size: 32 << 10, Assoc: 1, Line: 32, Latency: 1, MSHRs: 4},
				L1D:    Cache{Size: 32 << 10, Assoc: 1, Line: 32, Latency: 1, MSHRs: 8},
				L2:     Cache{Size: 512 << 10, Assoc: 4, Line: 64, Latency: 10, MSHRs: 16},
				Memory: Memory{Latency: 100},
			}
		},
	},

	"hps": {
		title: "DISE/HPS remote-profiling machine (hps-phase-aware-remote-profiling.md, section 5.1)",
		source: []string{
			"Source: hps-phase-aware-remote-profiling.md, section 5.1 \"Methodology\": a SimpleScalar",
			"(Alpha) extension modelling \"a 4-way superscalar MIPS R10000-like processor\" with \"a 12",
			"stage pipeline with 128 entry reorder buffers and 80 reservation stations\", \"32KB",
			"instruction and data caches and a unified 1MB L2\"; a DISE replacement stalls decode for a",
			"single cycle. Values marked \"assumed\" are not stated in the paper.",
		},
		notes: map[string]string{
			"core.fetch_width":           `§5.1: "4-way superscalar"`,
			"core.fetch_queue":           "assumed",
			"core.decode_width":          `§5.1: "4-way superscalar"`,
			"core.decode_stages":         `§5.1: "12 stage pipeline": 2 fetch + 6 decode/rename + dispatch, issue, execute, commit`,
			"core.rename_width":          `§5.1: "4-way superscalar"`,
			"core.issue_width":           `§5.1: "4-way superscalar"`,
			"core.commit_width":          `§5.1: "4-way superscalar"`,
			"core.rob":                   `§5.1: "128 entry reorder buffers"`,
			"core.iq":                    `§5.1: "80 reservation stations"`,
			"core.lq":                    "assumed",
			"core.sq":                    "assumed",
			"core.int_regs":              "assumed: no limit beyond the ROB (32 + rob)",
			"core.fp_regs":               "assumed: no limit beyond the ROB (32 + rob)",
			"core.redirect_penalty":      "assumed: the 12-stage depth is modelled by decode_stages and l1i.latency",
			"core.dise_penalty":          `§5.1: "the single cycle stall associated with each replacement"`,
			"core.dise_redirect_penalty": `assumed: redirect_penalty; a taken DISE branch is §3.2's "potentially a pipeline flush"`,
			"fu.int_alu.count":           "assumed: 4-way",
			"fu.mem_port.count":          "assumed",
			"bpred.kind":                 "assumed: the paper states only \"aggressive branch ... speculation\"",
			"l1i.size":                   `§5.1: "32KB instruction and data caches"`,
			"l1i.assoc":                  "assumed: R10000's 2-way",
			"l1i.line":                   "assumed: R10000's 64-byte I-cache line",
			"l1i.latency":                "assumed: 2 fetch stages of the 12",
			"l1d.size":                   `§5.1: "32KB instruction and data caches"`,
			"l1d.assoc":                  "assumed: R10000's 2-way",
			"l1d.line":                   "assumed: R10000's 32-byte D-cache line",
			"l1d.latency":                "assumed: R10000's 2-cycle load-to-use (1 agen + 1)",
			"l2.size":                    `§5.1: "a unified 1MB L2"`,
			"l2.assoc":                   "assumed: R10000's 2-way",
			"l2.line":                    "assumed",
			"l2.latency":                 "assumed",
			"memory.latency":             "assumed",
		},
		build: func() Machine {
			return Machine{
				Core: Core{
					FetchWidth: 4, FetchQueue: 16, DecodeWidth: 4, DecodeStages: 6, RenameWidth: 4,
					IssueWidth: 4, CommitWidth: 4, ROB: 128, IQ: 80, LQ: 32, SQ: 32, LSQ: 0,
					IntRegs: 160, FPRegs: 160, RedirectPenalty: 1, ForwardLatency: 1,
					DISEPenalty: 1, DISERedirectPenalty: -1, DeadlockCycles: 200000,
				},
				FU: simpleScalarFUs(4, 1, 2, 1, 2),
				BPred: BPred{Kind: "bimodal", BimodalEntries: 2048, GshareEntries: 2048, HistoryBits: 11,
					MetaEntries: 1024, BTBEntries: 512, BTBAssoc: 4, RASDepth: 16},
				L1I:    Cache{Size: 32 << 10, Assoc: 2, Line: 64, Latency: 2, MSHRs: 4},
				L1D:    Cache{Size: 32 << 10, Assoc: 2, Line: 32, Latency: 1, MSHRs: 8},
				L2:     Cache{Size: 1 << 20, Assoc: 2, Line: 64, Latency: 12, MSHRs: 16},
				Memory: Memory{Latency: 100},
			}
		},
	},

	"stratified": {
		title: "stratified-sampling evaluation machine (stratified-sampling.md, section 5.2)",
		source: []string{
			"Source: stratified-sampling.md, section 5.2 \"Methodology\": SimpleScalar modelling",
			"\"a 4-way machine with 64-KB L1 data and instruction caches, 1-MB unified L2 data",
			"cache, and a gshare branch predictor\". Values marked \"assumed\" are not stated; most",
			"take sim-outorder's defaults.",
		},
		notes: map[string]string{
			"core.fetch_width":      `§5.2: "a 4-way machine"`,
			"core.fetch_queue":      "assumed: 2 x fetch_width",
			"core.decode_width":     `§5.2: "a 4-way machine"`,
			"core.decode_stages":    "assumed: sim-outorder has one stage between fetch and dispatch",
			"core.rename_width":     `§5.2: "a 4-way machine"`,
			"core.issue_width":      `§5.2: "a 4-way machine"`,
			"core.commit_width":     `§5.2: "a 4-way machine"`,
			"core.rob":              "assumed: a 64-entry RUU",
			"core.iq":               "assumed: the RUU is both ROB and reservation stations",
			"core.lsq":              "assumed: a 32-entry unified LSQ",
			"core.redirect_penalty": "assumed: sim-outorder default -fetch:mplat 3",
			"bpred.kind":            `§5.2: "a gshare branch predictor"`,
			"bpred.gshare_entries":  "assumed: sim-outorder default -bpred:2lev 1 1024 8 (with xor)",
			"bpred.history_bits":    "assumed: sim-outorder default -bpred:2lev 1 1024 8 (with xor)",
			"bpred.btb_entries":     "assumed: sim-outorder default -bpred:btb 512 4",
			"bpred.btb_assoc":       "assumed: sim-outorder default -bpred:btb 512 4",
			"bpred.ras_depth":       "assumed: sim-outorder default -bpred:ras 8",
			"fu.int_alu.count":      "assumed: sim-outorder default -res:ialu 4",
			"fu.int_mul.count":      "assumed: sim-outorder default -res:imult 1",
			"fu.fp_add.count":       "assumed: sim-outorder default -res:fpalu 4",
			"fu.fp_mul.count":       "assumed: sim-outorder default -res:fpmult 1",
			"fu.mem_port.count":     "assumed: sim-outorder default -res:memport 2",
			"l1i.size":              `§5.2: "64-KB L1 data and instruction caches"`,
			"l1i.assoc":             "assumed",
			"l1i.line":              "assumed: sim-outorder's 32-byte L1 blocks",
			"l1i.latency":           "assumed: sim-outorder default -cache:il1lat 1",
			"l1d.size":              `§5.2: "64-KB L1 data and instruction caches"`,
			"l1d.assoc":             "assumed",
			"l1d.line":              "assumed: sim-outorder's 32-byte L1 blocks",
			"l1d.latency":           "assumed: sim-outorder default -cache:dl1lat 1",
			"l2.size":               `§5.2: "1-MB unified L2 data cache"`,
			"l2.assoc":              "assumed: sim-outorder's default ul2 associativity",
			"l2.line":               "assumed: sim-outorder's default ul2 block size",
			"l2.latency":            "assumed: sim-outorder default -cache:dl2lat 6",
			"memory.latency":        "assumed: sim-outorder default -mem:lat 18 2 for a 64-byte line (18 + 7 x 2)",
		},
		build: func() Machine {
			return Machine{
				Core: Core{
					FetchWidth: 4, FetchQueue: 8, DecodeWidth: 4, DecodeStages: 1, RenameWidth: 4,
					IssueWidth: 4, CommitWidth: 4, ROB: 64, IQ: 64, LQ: 32, SQ: 32, LSQ: 32,
					IntRegs: 96, FPRegs: 96, RedirectPenalty: 3, ForwardLatency: 1,
					DISEPenalty: 1, DISERedirectPenalty: -1, DeadlockCycles: 200000,
				},
				FU: simpleScalarFUs(4, 1, 4, 1, 2),
				BPred: BPred{Kind: "gshare", BimodalEntries: 2048, GshareEntries: 1024, HistoryBits: 8,
					MetaEntries: 1024, BTBEntries: 512, BTBAssoc: 4, RASDepth: 8},
				L1I:    Cache{Size: 64 << 10, Assoc: 2, Line: 32, Latency: 1, MSHRs: 4},
				L1D:    Cache{Size: 64 << 10, Assoc: 2, Line: 32, Latency: 1, MSHRs: 8},
				L2:     Cache{Size: 1 << 20, Assoc: 4, Line: 64, Latency: 6, MSHRs: 16},
				Memory: Memory{Latency: 32},
			}
		},
	},
}

// Presets returns the preset names, "default" first.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		if n != "default" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return append([]string{"default"}, names...)
}

// PresetTitle returns a one-line description of a preset.
func PresetTitle(name string) string {
	if p, ok := presets[name]; ok {
		return p.title
	}
	return ""
}

// Preset returns a fresh copy of the named preset.
func Preset(name string) (*Machine, error) {
	p, ok := presets[name]
	if !ok {
		return nil, fmt.Errorf("unknown preset %q (presets: %s)", name, strings.Join(Presets(), ", "))
	}
	m := p.build()
	m.Name = name
	return &m, nil
}

// Default returns the default preset.
func Default() *Machine {
	m, _ := Preset("default")
	return m
}
