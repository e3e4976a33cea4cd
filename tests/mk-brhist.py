#!/usr/bin/env python3
"""Byte-built recordings for perf report's --branch-history (perf record -b
needs a hardware PMU this VM has not): the branch stacks of the fixture
program cpu (tests/fixtures-src/cpu.c) as LBR would record them, at its real
instruction addresses, so that perf's addr2line finds their source lines in
the binary of tests/data/buildid (named by the recording's build id).

  brhist.data    cycles with BRANCH_STACK (loops, calls, returns; flags,
                 cycles, a branch from an address in no map)
  brhist-g.data  the same with frame-pointer CALLCHAINs too
  lbr.data       --call-graph lbr: the user chain is the branch stack of the
                 calls in flight (PERF_SAMPLE_BRANCH_CALL_STACK)

usage: mk-brhist.py DIR BINARY   (BINARY: the cached cpu, for its build id)
       mk-brhist.py --big N FILE BINARY: N samples of 16 branches drawn at random
                    (a fixed seed) from the program's branches, for bench/run.sh"""
import importlib.util
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mkbrmem", os.path.join(here, "mk-brmem.py"))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)

IP, TID, TIME, CPU, PERIOD = 0x1, 0x2, 0x4, 0x80, 0x100
CALLCHAIN, BRANCH_STACK = 0x20, 0x800
BASE = 0x555555554000
PATH = "/tmp/perfnav-fixtures/cpu"
NOWHERE = 0x7e0000001000
CTX_USER = (1 << 64) - 512

COND, UNCOND, CALL, RET = 1, 2, 4, 6


def br(fr, to, typ, cycles=0, predicted=1, abort=0):
    fl = m.flags(mispred=1 - predicted, predicted=predicted, abort=abort, cycles=cycles, typ=typ)
    return (BASE + fr if fr < 0x10000 else fr, BASE + to if to < 0x10000 else to, fl)


LOOP_MIX_ONE = br(0x1191, 0x117b, COND, 4)
LOOP_FILL = br(0x1171, 0x1157, COND, 3)
LOOP_REDUCE = br(0x11ff, 0x11d3, COND, 9)
# (ip, callchain below the ip (return addresses), branch stack newest first)
SAMPLES = [
    (0x1182, [0x11b0, 0x122f],
     [LOOP_MIX_ONE, LOOP_MIX_ONE, br(0x1191, 0x117b, COND, 5, predicted=0),
      br(0x11ab, 0x1174, CALL, 2), br(0x11b9, 0x11a9, COND, 1),
      br(0x1193, 0x11b0, RET, 7), LOOP_MIX_ONE, LOOP_MIX_ONE]),
    (0x1182, [0x11b0, 0x122f],
     [LOOP_MIX_ONE, br(0x11ab, 0x1174, CALL, 2), br(0x11b9, 0x11a9, COND, 1),
      br(0x1193, 0x11b0, RET, 6), LOOP_MIX_ONE, LOOP_MIX_ONE, LOOP_MIX_ONE]),
    (0x1188, [0x11b0, 0x122f],
     [LOOP_MIX_ONE, br(0x11ab, 0x1174, CALL, 3), br(0x11b9, 0x11a9, COND, 1, predicted=0),
      br(0x1193, 0x11b0, RET, 6)]),
    (0x1163, [0x122f],
     [LOOP_FILL, LOOP_FILL, LOOP_FILL, br(0x122a, 0x1149, CALL, 11),
      br(0x1244, 0x1228, COND, 2), br(0x1204, 0x1239, RET, 20), LOOP_REDUCE, LOOP_REDUCE]),
    (0x1163, [0x122f],
     [LOOP_FILL, br(0x122a, 0x1149, CALL, 11), br(0x1244, 0x1228, COND, 2),
      br(0x1204, 0x1239, RET, 20)]),
    (0x11e4, [0x1239],
     [LOOP_REDUCE, LOOP_REDUCE, br(0x1234, 0x11c0, CALL, 2), br(0x11bf, 0x1234, RET, 4),
      br(0x11b9, 0x11bb, COND, 1, predicted=0), br(0x1193, 0x11b0, RET, 5)]),
    (0x11e4, [0x1239],
     [LOOP_REDUCE, br(NOWHERE, 0x11d3, UNCOND, 0, abort=1), LOOP_REDUCE]),
    (0x1168, [0x122f], []),
]


def cpu_process():
    """pid 42's COMM and the MMAP2 of the program's text (its build id in the header)."""
    body = struct.pack("<IIQQQIIQQII", 42, 42, BASE + 0x1000, 0x1000, 0x1000, 8, 1, 77, 0, 5, 2)
    return [m.comm(42, "cpu"), m.rec(10, 2, body + m.cstr(PATH))]


def build_id_feat(bid):
    # HEADER_BUILD_ID: a build_id_event (header, pid, 24-byte id, size, filename)
    name = m.cstr(PATH)
    body = struct.pack("<i", -1) + bid + b"\0" * (24 - len(bid))
    hdr = struct.pack("<IHH", 0, 2, 8 + len(body) + len(name))
    return hdr + body + name


def brhist_data(path, bid, with_chain):
    st = IP | TID | TIME | CPU | PERIOD | BRANCH_STACK | (CALLCHAIN if with_chain else 0)
    at = m.attr(0, 0, st, 8 | 1 | 0x10000)  # ANY, user, TYPE_SAVE
    recs = cpu_process()
    t = 1000000
    for rep in range(2):
        for i, (ip, chain, bstack) in enumerate(SAMPLES):
            body = struct.pack("<QIIQ", BASE + ip, 42, 42, t)
            body += struct.pack("<IIQ", 0, 0, 100 + 10 * i)
            if with_chain:
                ips = [CTX_USER, BASE + ip] + [BASE + a for a in chain]
                body = body[:24] + body[24:]  # order: ip tid time [callchain] cpu period
                body = struct.pack("<QIIQ", BASE + ip, 42, 42, t) + struct.pack("<IIQ", 0, 0, 100 + 10 * i)
                # PERF_SAMPLE order: IP TID TIME ... CPU PERIOD ... CALLCHAIN ... BRANCH_STACK
                body += struct.pack("<Q", len(ips)) + b"".join(struct.pack("<Q", a) for a in ips)
            body += struct.pack("<Q", len(bstack))
            for fr, to, fl in bstack:
                body += struct.pack("<QQQ", fr, to, fl)
            recs.append(m.rec(9, 2, body))
            t += 1000
    feats = m.common_feats(at, "cycles")
    feats[15] = b""  # BRANCH_STACK
    feats[2] = build_id_feat(bid)
    m.recording(path, at, recs, feats)


# --call-graph lbr: (ip, the calls in flight newest first as (call site, callee)); chain
# [PERF_CONTEXT_USER] (the kernel part of a user sample: its marker alone)
CALL_MIX_ONE, CALL_MIX, CALL_FILL, CALL_REDUCE = (0x11ab, 0x1174), (0x122f, 0x1194), \
    (0x122a, 0x1149), (0x1234, 0x11c0)
LBR_SAMPLES = [
    (0x1182, [CALL_MIX_ONE, CALL_MIX]),
    (0x1188, [CALL_MIX_ONE, CALL_MIX]),
    (0x11a9, [CALL_MIX]),
    (0x1163, [CALL_FILL]),
    (0x11e4, [CALL_REDUCE]),
    (0x11d3, [CALL_REDUCE]),
    (0x1182, [CALL_MIX_ONE, CALL_MIX]),
    (0x11b0, [CALL_MIX]),
]


def lbr_data(path, bid):
    st = IP | TID | TIME | CPU | PERIOD | CALLCHAIN | BRANCH_STACK
    at = m.attr(0, 0, st, 2 | 0x800 | 0x10000)  # user, CALL_STACK, TYPE_SAVE
    recs = cpu_process()
    t = 1000000
    for rep in range(3):
        for i, (ip, calls) in enumerate(LBR_SAMPLES):
            body = struct.pack("<QIIQ", BASE + ip, 42, 42, t) + struct.pack("<IIQ", 0, 0, 50 + 25 * i)
            body += struct.pack("<QQ", 1, CTX_USER)
            body += struct.pack("<Q", len(calls))
            for k, (site, callee) in enumerate(calls):
                fl = m.flags(predicted=1, cycles=3 + k + rep, typ=CALL)
                body += struct.pack("<QQQ", BASE + site, BASE + callee, fl)
            recs.append(m.rec(9, 2, body))
            t += 1000
    feats = m.common_feats(at, "cycles")
    feats[2] = build_id_feat(bid)  # no BRANCH_STACK feature: perf record writes it for -b/-j only
    m.recording(path, at, recs, feats)


def elf_build_id(path):
    data = open(path, "rb").read()
    i = data.find(b"GNU\0")
    while i >= 0:
        namesz, descsz, typ = struct.unpack("<III", data[i - 12:i])
        if namesz == 4 and typ == 3:
            return data[i + 4:i + 4 + descsz]
        i = data.find(b"GNU\0", i + 1)
    sys.exit("mk-brhist.py: no build id in " + path)


# the program's branches (source, target, type) bench recordings draw from
BIG_POOL = [(0x1191, 0x117b, COND), (0x1171, 0x1157, COND), (0x11ff, 0x11d3, COND),
            (0x11ab, 0x1174, CALL), (0x1193, 0x11b0, RET), (0x11b9, 0x11a9, COND),
            (0x122a, 0x1149, CALL), (0x122f, 0x1194, CALL), (0x1234, 0x11c0, CALL),
            (0x1244, 0x1228, COND), (0x1204, 0x1239, RET), (0x1173, 0x122f, RET),
            (0x11bf, 0x1234, RET)]
BIG_IPS = [0x1182, 0x1188, 0x1163, 0x1168, 0x11e4, 0x11d3, 0x11a9, 0x11b0]


def big_data(path, bid, n):
    import random
    rnd = random.Random(1)
    st = IP | TID | TIME | CPU | PERIOD | BRANCH_STACK
    at = m.attr(0, 0, st, 8 | 1 | 0x10000)
    recs = cpu_process()
    for i in range(n):
        body = struct.pack("<QIIQIIQQ", BASE + rnd.choice(BIG_IPS), 42, 42, 1000000 + 1000 * i,
                           0, 0, 100, 16)
        for _ in range(16):
            fr, to, ty = rnd.choice(BIG_POOL)
            fl = m.flags(predicted=rnd.randint(0, 1), cycles=rnd.randint(1, 50), typ=ty)
            body += struct.pack("<QQQ", BASE + fr, BASE + to, fl)
        recs.append(m.rec(9, 2, body))
    feats = m.common_feats(at, "cycles")
    feats[15] = b""
    feats[2] = build_id_feat(bid)
    m.recording(path, at, recs, feats)


if __name__ == "__main__":
    if sys.argv[1] == "--big":
        big_data(sys.argv[3], elf_build_id(sys.argv[4]), int(sys.argv[2]))
        sys.exit(0)
    d, binary = sys.argv[1], sys.argv[2]
    bid = elf_build_id(binary)
    brhist_data(d + "/brhist.data", bid, False)
    brhist_data(d + "/brhist-g.data", bid, True)
    lbr_data(d + "/lbr.data", bid)
