#!/usr/bin/env bash
# Regenerates the asm column of golden.txt from its hex column with the GNU
# cross binutils (riscv64-linux-gnu-as/objdump 2.40): every word is placed
# with .insn, assembled, disassembled with objdump -d, and objdump's text is
# normalized as follows (each rule is objdump's quirk, not a change of
# meaning):
#   - tabs become single spaces; "# ..." annotations are dropped;
#   - branch/jump targets "ADDR <sym>" become relative ".+N"/".-N";
#   - binutils 2.40 prints the register-form mnemonic for several immediate
#     forms (addi as "add", srli as "srl", csrrsi as "csrrs", bseti as "bset",
#     ...); when the last operand is a number the immediate form is restored;
#   - the rvsim custom-0 ops, unknown to binutils, are named hps.on/hps.off/dise.ret;
#   - Zicond's czero.eqz/czero.nez, which binutils 2.40 does not know
#     (.4byte), are named from their fields as the Zicond specification
#     lays them out (x/arch's riscv64asm checks the same decode).
# It also regenerates csr.golden, "number|name" for every CSR number objdump
# names (csrrc a0,N,a1 for N = 0..4095; unnamed ones print as hex).
# usage: testdata/gen.sh [file]   (default: golden.txt and csr.golden beside
# this script; with a file argument only that hex|asm file is rewritten)
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
golden=${1:-$dir/golden.txt}
cross=${CROSS:-riscv64-linux-gnu-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -eq 0 ]; then
	{
		echo .text
		for n in $(seq 0 4095); do printf '.insn 4, 0x%08x\n' $((n << 20 | 0x5b573)); done
	} >"$tmp/csr.s"
	"${cross}as" -march=rv64gc -o "$tmp/csr.o" "$tmp/csr.s"
	{
		echo "# number|name of every CSR GNU objdump 2.40 names (csrrc a0,N,a1); others print as hex"
		"${cross}objdump" -d "$tmp/csr.o" | awk -F'\t' '/^ *[0-9a-f]+:\t/ {
			split($4, a, ","); if (a[2] !~ /^0x/) print substr($2, 1, 3) "|" a[2]
		}'
	} >"$dir/csr.golden"
fi

{
	echo .text
	grep -v '^#' "$golden" | grep . | cut -d'|' -f1 | while read -r h; do
		printf '.insn %d, 0x%s\n' $((${#h} / 2)) "$h"
	done
} >"$tmp/w.s"
"${cross}as" -march=rv64gc_zba_zbb_zbc_zbs_zihintpause -o "$tmp/w.o" "$tmp/w.s"
"${cross}objdump" -d "$tmp/w.o" >"$tmp/w.dis"

{
	echo "# hex|asm: GNU objdump 2.40 disassembly, normalized by gen.sh (see there)."
	echo "# 32-bit words are 8 hex digits, 16-bit words 4. Edit the hex column and rerun gen.sh."
	awk -F'\t' '
	function hexval(s,    i, c, v) {
		v = 0
		s = tolower(s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	BEGIN {
		n = split("j jal beq bne blt bge bltu bgeu beqz bnez blez bgez bltz bgtz", t, " ")
		for (i = 1; i <= n; i++) target[t[i]] = 1
		n = split("add:addi addw:addiw and:andi or:ori xor:xori sll:slli srl:srli sra:srai sllw:slliw srlw:srliw sraw:sraiw ror:rori rorw:roriw bset:bseti bclr:bclri binv:binvi bext:bexti csrrw:csrrwi csrrs:csrrsi csrrc:csrrci csrw:csrwi csrs:csrsi csrc:csrci", t, " ")
		for (i = 1; i <= n; i++) { split(t[i], kv, ":"); immform[kv[1]] = kv[2] }
		n = split("zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6", t, " ")
		for (i = 1; i <= n; i++) xreg[i - 1] = t[i]
	}
	/^ *[0-9a-f]+:\t/ {
		pc = $1; gsub(/[ :]/, "", pc); pc = hexval(pc)
		word = $2; gsub(/ /, "", word)
		mn = $3; ops = $4
		sub(/ *#.*$/, "", ops)
		nops = split(ops, a, ",")
		last = a[nops]
		if (mn in target) {
			sub(/ <.*>$/, "", last)
			# targets below 0 print as 64-bit addresses ffffffff...
			rel = (length(last) == 16 ? hexval(substr(last, 9)) - 4294967296 : hexval(last)) - pc
			a[nops] = (rel < 0) ? ".-" (-rel) : ".+" rel
		} else if ((mn in immform) && last ~ /^-?(0x)?[0-9a-f]+$/ && last !~ /^[a-f]/) {
			mn = immform[mn]
		}
		if (mn == ".4byte" && ops == "0x100b") { mn = "hps.on"; nops = 0 }
		if (mn == ".4byte" && ops == "0x200b") { mn = "hps.off"; nops = 0 }
		if (mn == ".4byte" && ops == "0x300b") { mn = "dise.ret"; nops = 0 }
		if (mn == ".4byte") {
			w = hexval(word)
			f7 = int(w / 33554432); f3 = int(w / 4096) % 8
			if (w % 128 == 51 && f7 == 7 && (f3 == 5 || f3 == 7)) {
				mn = (f3 == 5) ? "czero.eqz" : "czero.nez"
				nops = 3
				a[1] = xreg[int(w / 128) % 32]; a[2] = xreg[int(w / 32768) % 32]; a[3] = xreg[int(w / 1048576) % 32]
			}
		}
		line = mn
		for (i = 1; i <= nops; i++) line = line (i == 1 ? " " : ",") a[i]
		print word "|" line
	}' "$tmp/w.dis"
} >"$tmp/golden.new"
grep -v '^#' "$tmp/golden.new" | cut -d'|' -f1 >"$tmp/got"
grep -v '^#' "$golden" | grep . | cut -d'|' -f1 >"$tmp/want"
if ! cmp -s "$tmp/got" "$tmp/want"; then
	echo "gen.sh: objdump output does not line up with the input words" >&2
	exit 1
fi
mv "$tmp/golden.new" "$golden"
