#!/usr/bin/env python3
"""Splits a callgrind profile (callgrind_annotate's exclusive listing on
stdin) between the simulation's thread and the goroutines a profhw unit
hands its work to (profhw.Pipe's consumers), by function name: what a
second core can take off the simulation (bench/profhw-ir.sh). Prints
"sim consumer" host instructions."""
import re
import sys

# Functions that run on a Pipe's consumer goroutine when one exists: the
# stratified compressor and its measurement, the multi-hash bank and its
# reference, the hashes and exact tables they use; the path profiler's
# hardware model and reference (all of pathprof but the hand-over).
CONSUMER = re.compile(
    r"profhw/(stratified|multihash)\.\(\*(Sampler|Compressor|reference|Profiler|Bank|packedHash|fastHash|"
    r"countTable|perfectTable|runProfile|tupleIndex|accIndex|sender|Tagged|Assoc)\)"
    r"|profhw/tuple\.(?!\(\*Selector\)|Set\.)|stratified\.ErrorPC|multihash\.score"
    r"|profhw/multihash\.\(\*Unit\)\.(start\.func|runBatch)"
    # The path profiler's hardware model and reference, fed the control
    # tap's records (pathprof's async.go): all of it but the hand-over.
    r"|profhw/pathprof\.(?!\(\*Unit\)\.(retireAsync|Retire|RetireControls|retireControlsInline)\b)"
)
# The bank's reference (a consumer of the bank's own consumer).
REF = re.compile(r"multihash\.\(\*(Bank\)\.(consume|scoreInterval|intervalEnded|countValues|countTuples)|countTable|perfectTable|runProfile|mergeStream|runEntry|denseWords|pairMap)"
                 r"|multihash\.(score|mergeSome|runKey)")
sim = cons = ref = 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S+)", line)
    if not m or ":" not in m.group(2):
        continue
    n = int(m.group(1).replace(",", ""))
    fn = m.group(2)
    if REF.search(fn):
        ref += n
    elif CONSUMER.search(fn):
        cons += n
    else:
        sim += n
print(sim, cons, ref)
