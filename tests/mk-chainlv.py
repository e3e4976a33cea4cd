#!/usr/bin/env python3
"""A byte-built recording of callchain frames in no map (address 0, garbage)
beside mapped kernel and user frames, for the [k]/[.] level perf 6.1 gives
them: a frame in a map takes its map's level, one in none keeps the level of
the entry perf filled before it.  The fixture program cpu mapped as a PIE
(tests/data/buildid has it) and the kernel of tests/data/mem-obj.kallsyms.

  chainlv.data   cpu-clock samples with CALLCHAIN, one process per case
                 (kmid first: its null frame is the recording's first)

usage: mk-chainlv.py DIR"""
import importlib.util
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mkbrmem", os.path.join(here, "mk-brmem.py"))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)

IP, TID, TIME, CPU, PERIOD, CALLCHAIN = 0x1, 0x2, 0x4, 0x80, 0x100, 0x20
CTX_KERNEL, CTX_USER = (1 << 64) - 128, (1 << 64) - 512
K, U = m.KTEXT, m.PIE
GARBAGE = 0xdeadbeef

# (pid, comm, kernel sample?, callchain)
SAMPLES = [
    # a null frame after the kernel part, before the user marker
    (43, "kmid", True, [CTX_KERNEL, K + 0x100, 0, CTX_USER, U + 0x122f]),
    # user frames, then a null frame and garbage, under a kernel sample
    (42, "kuser", True, [CTX_KERNEL, K + 0x100, K + 0x180, CTX_USER, U + 0x1150, U + 0x122f, 0,
                         GARBAGE]),
    # garbage straight after the user marker
    (44, "kgarb", True, [CTX_KERNEL, K + 0x100, CTX_USER, GARBAGE, U + 0x122f]),
    # a user sample's garbage and null frame
    (45, "user", False, [CTX_USER, U + 0x1150, GARBAGE, 0, U + 0x122f]),
    # kuser again, its null frame after a kernel frame this time
    (42, "kuser", True, [CTX_KERNEL, K + 0x100, 0, CTX_USER, U + 0x122f]),
]


def chainlv_data(path):
    st = IP | TID | TIME | CPU | PERIOD | CALLCHAIN
    at = m.attr(1, 0, st, 0)
    recs = [m.kernel_mmap()]
    for pid in sorted({s[0] for s in SAMPLES}):
        recs.append(m.comm(pid, next(s[1] for s in SAMPLES if s[0] == pid)))
        recs += m.pie_maps(pid, U)
    t = 1000000
    for pid, _, kernel, chain in SAMPLES:
        ip = next(a for a in chain if a < (1 << 64) - 4095)  # not a marker
        body = struct.pack("<QIIQIIQQ", ip, pid, pid, t, 0, 0, 4000, len(chain))
        body += b"".join(struct.pack("<Q", a) for a in chain)
        recs.append(m.rec(9, 1 if kernel else 2, body))
        t += 1000
    feats = m.common_feats(at, "cpu-clock")
    feats[2] = m.build_id_feat(-1, m.CPU_BIN, m.CPU_BID)
    m.recording(path, at, recs, feats)


if __name__ == "__main__":
    chainlv_data((sys.argv[1] if len(sys.argv) > 1 else ".") + "/chainlv.data")
