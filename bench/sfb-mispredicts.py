#!/usr/bin/env python3
"""How many of a run's branch mispredicts SonicBOOM's short-forwards-branch
(SFB) recoding would remove (docs/TIMING.md, "Against a real core").

Usage: bench/sfb-mispredicts.py ELF CYCLE_PROFILE
  CYCLE_PROFILE: `rvsim run --mode timing --cycle-profile FILE ELF ...`

SonicBOOM turns a hard-to-predict forward branch over a few simple ALU
instructions into predicated micro-ops, so it is never mispredicted (Zhao
et al., CARRV 2020, the "short-forwards branch" optimisation: 6.15 against
4.9 CoreMark/MHz). The rule below is BOOM v3's (riscv-boom,
src/main/scala/exu/decode.scala BranchDecode and ifu/frontend.scala):
  - a conditional branch (RVC included), forward, offset below the 64-byte
    I-cache block (sfb_offset.valid);
  - its target within two 16-byte fetch packets of the branch's aligned
    fetch address (f3_fetch_bundle.sfbs: offset_from_aligned_pc <= 2 x
    fetchBytes);
  - every instruction in its shadow "shadowable": an integer ALU operation
    with no rs2, or with rs1 == rd, or a move (add rd, x0, rs2).
rvsim's model has no such recoding; this counts, per branch, the
mispredicts the cycle profile charges to it, and prints the SFB share.
"""
import re
import subprocess
import sys

ALU = {
    "add", "addw", "sub", "subw", "and", "or", "xor", "sll", "sllw", "srl", "srlw", "sra", "sraw",
    "slt", "sltu", "addi", "addiw", "andi", "ori", "xori", "slli", "slliw", "srli", "srliw",
    "srai", "sraiw", "slti", "sltiu", "lui",
    "c.add", "c.addw", "c.sub", "c.subw", "c.and", "c.or", "c.xor", "c.mv", "c.li", "c.lui",
    "c.addi", "c.addiw", "c.andi", "c.slli", "c.srli", "c.srai", "c.nop",
}
THREE_REG = {"add", "addw", "sub", "subw", "and", "or", "xor", "sll", "sllw", "srl", "srlw",
             "sra", "sraw", "slt", "sltu"}
BRANCH = {"beq", "bne", "blt", "bge", "bltu", "bgeu", "c.beqz", "c.bnez"}


def shadowable(op, args):
    if op not in ALU:
        return False
    regs = [a.strip() for a in args.split(",")]
    if op in THREE_REG:
        return regs[0] == regs[1] or (op == "add" and regs[1] == "zero")
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench/sfb-mispredicts.py ELF CYCLE_PROFILE")
    elf, prof = sys.argv[1], sys.argv[2]
    dis = subprocess.run(["riscv64-linux-gnu-objdump", "-d", "-M", "no-aliases", "--no-show-raw-insn", elf],
                         check=True, capture_output=True, text=True).stdout
    insts, order = {}, []
    for line in dis.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*([^#<]*)", line)
        if m:
            a = int(m.group(1), 16)
            insts[a] = (m.group(2), m.group(3).strip())
            order.append(a)
    following = dict(zip(order, order[1:]))
    top = subprocess.run(["go", "tool", "pprof", "-sample_index=mispredicts", "-addresses", "-top",
                          "-nodecount=100000", "-nodefraction=0", elf, prof], check=True, capture_output=True, text=True).stdout
    total = sfb = 0
    rows = []
    for line in top.splitlines():
        f = line.split()
        if len(f) < 7 or not re.fullmatch(r"[0-9a-f]{16}", f[5]):
            continue
        n, pc = int(f[0]), int(f[5], 16)
        total += n
        op, args = insts.get(pc, ("?", ""))
        is_sfb = False
        if op in BRANCH:
            target = int(args.split(",")[-1].strip(), 16)
            off = target - pc
            if 0 < off < 64 and pc % 16 + off <= 32:
                p, is_sfb = following[pc], True
                while p < target:
                    is_sfb = is_sfb and shadowable(*insts[p])
                    p = following[p]
        if is_sfb:
            sfb += n
        rows.append((n, pc, f[6], op, args, is_sfb))
    if total == 0:
        sys.exit("sfb-mispredicts: the profile has no mispredicts")
    print(f"mispredicts {total}, on SFB-convertible branches {sfb} ({100 * sfb / total:.1f}%)")
    print("top branches: mispredicts, pc, function, instruction, SFB")
    for n, pc, fn, op, args, s in rows[:12]:
        print(f"  {n:9d}  {pc:#x}  {fn:24s} {op} {args}  {'SFB' if s else ''}")


if __name__ == "__main__":
    main()
