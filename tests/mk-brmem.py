#!/usr/bin/env python3
"""Byte-built recordings for branch and memory modes (perf record -b / -d can
not run in a VM without a hardware PMU): writes DIR/branch.data (cycles with
BRANCH_STACK: sources, targets, flags and cycles of every kind perf prints)
and DIR/mem.data (cpu-clock with ADDR, WEIGHT, DATA_SRC, PHYS_ADDR,
DATA_PAGE_SIZE: data_src values of each memory column) and DIR/mem-obj.data
(WEIGHT_STRUCT; data addresses in the fixture binary cpu's objects, mapped as
a PIE process maps it: symbol_daddr and dcacheline name data objects; its
build id is in tests/data/buildid).  perf 6.1 reads both:
its outputs on them are tests/data/expected/{branch,mem}.data.*.  Damaged
copies: branch-bad.data (a branch count past its record), mem-bad.data (a
sample cut inside its DATA_SRC).

usage: mk-brmem.py DIR"""
import struct, sys

IP, TID, TIME, ADDR, CPU, PERIOD = 0x1, 0x2, 0x4, 0x8, 0x80, 0x100
BRANCH_STACK, WEIGHT, DATA_SRC, PHYS_ADDR, PAGE_SIZE = 0x800, 0x4000, 0x8000, 0x80000, 0x400000
WEIGHT_STRUCT = 0x1000000
# attr flags: disabled, inherit, mmap, comm, freq=0, mmap2
FLAGS = (1 << 0) | (1 << 1) | (1 << 8) | (1 << 9) | (1 << 23)


def rec(typ, misc, body):
    return struct.pack("<IHH", typ, misc, 8 + len(body)) + body


def cstr(s):
    b = s.encode() + b"\0"
    return b + b"\0" * (-len(b) % 8)


def comm(pid, name):
    return rec(3, 0, struct.pack("<II", pid, pid) + cstr(name))


def mmap2(pid, start, length, path, pgoff=0, prot=5, ino=None):
    """prot 5 (r-x) unless said; a map that is not executable is a data map
    (misc MMAP_DATA); ino 0 with device 0:0 is anonymous memory."""
    ino = 1000 + start if ino is None else ino
    dev = (8, 1) if ino else (0, 0)
    body = struct.pack("<IIQQQIIQQII", pid, pid, start, length, pgoff, dev[0], dev[1], ino, 0,
                       prot, 2)
    return rec(10, 2 if prot & 4 else 0x2002, body + cstr(path))


def attr(typ, config, sample_type, branch_type):
    a = struct.pack("<IIQQQQQ", typ, 128, config, 1, sample_type, 0, FLAGS)
    a += struct.pack("<IIQQQ", 0, 0, 0, 0, branch_type)
    return a + b"\0" * (128 - len(a))


def recording(path, at, records, feats):
    """feats: {bit: bytes}; the event's name goes in EVENT_DESC."""
    hdr = 104
    ids_off = hdr
    attrs_off = ids_off + 8
    data_off = attrs_off + 128 + 16
    data = b"".join(records)
    feat_tab = data_off + len(data)
    bits = sorted(feats)
    secs, off = [], feat_tab + 16 * len(bits)
    for b in bits:
        secs.append((off, len(feats[b])))
        off += len(feats[b])
    mask = sum(1 << b for b in bits)
    out = b"PERFILE2" + struct.pack("<QQ", hdr, 128 + 16)
    out += struct.pack("<QQ", attrs_off, 128 + 16)
    out += struct.pack("<QQ", data_off, len(data))
    out += struct.pack("<QQ", 0, 0)
    out += struct.pack("<QQQQ", mask, 0, 0, 0)
    assert len(out) == hdr
    out += struct.pack("<Q", 7)  # the attr's one id
    out += at + struct.pack("<QQ", ids_off, 8)
    out += data
    for o, n in secs:
        out += struct.pack("<QQ", o, n)
    for b in bits:
        out += feats[b]
    with open(path, "wb") as f:
        f.write(out)


def fstr(s):
    b = s.encode() + b"\0"
    b += b"\0" * (-len(b) % 64)
    return struct.pack("<I", len(b)) + b


def event_desc(at, name):
    return struct.pack("<II", 1, 128) + at + struct.pack("<I", 1) + fstr(name) + struct.pack("<Q", 7)


def common_feats(at, name):
    # HOSTNAME (3), OSRELEASE (4), ARCH (6), NRCPUS (7), EVENT_DESC (12)
    return {3: fstr("brmem"), 4: fstr("6.1.0"), 6: fstr("x86_64"),
            7: struct.pack("<II", 2, 2), 12: event_desc(at, name)}


def flags(mispred=0, predicted=0, in_tx=0, abort=0, cycles=0, typ=0):
    return mispred | predicted << 1 | in_tx << 2 | abort << 3 | cycles << 4 | typ << 20


LIB, APP = 0x400000, 0x7f0000000000
BRANCHES = [  # per sample: (from, to, flags) entries
    [(LIB + 0x100, LIB + 0x200, flags(predicted=1, cycles=3, typ=1)),
     (LIB + 0x210, APP + 0x40, flags(mispred=1, cycles=12, typ=4)),
     (APP + 0x48, LIB + 0x214, flags(predicted=1, typ=6))],
    [(LIB + 0x100, LIB + 0x200, flags(predicted=1, cycles=3, typ=1)),
     (0xffffffff81000010, LIB + 0x300, flags(in_tx=1, abort=1, typ=8)),
     (0, 0, 0)],
    [(LIB + 0x100, LIB + 0x200, flags(predicted=1, cycles=5, typ=1)),
     (APP + 0x10, APP + 0x80, flags(predicted=1, cycles=1, typ=2)),
     (APP + 0x90, LIB + 0x400, flags(cycles=42141, typ=5))],
    [],
]


def branch_data(path, bad=False):
    st = IP | TID | TIME | CPU | PERIOD | BRANCH_STACK
    at = attr(0, 0, st, 8 | 1 | 2)  # PERF_SAMPLE_BRANCH_ANY, user and kernel
    recs = [comm(42, "brtest"), mmap2(42, LIB, 0x10000, "/nonexistent/libbr.so"),
            mmap2(42, APP, 0x1000, "/nonexistent/brapp-with-a-long-name.so.1")]
    t = 1000000
    for rep in range(3):
        for i, br in enumerate(BRANCHES):
            nr = 0xffffff if bad and rep == 1 and i == 0 else len(br)
            body = struct.pack("<QIIQIIQQ", LIB + 0x200 + i, 42, 42, t, i % 2, 0, 100, nr)
            for fr, to, fl in br:
                body += struct.pack("<QQQ", fr, to, fl)
            recs.append(rec(9, 2, body))
            t += 1000
    feats = common_feats(at, "cycles")
    feats[15] = b""  # BRANCH_STACK
    recording(path, at, recs, feats)


def ds(op=0, lvl=0, snoop=0, lock=0, dtlb=0, lvlnum=0, remote=0, snoopx=0, blk=0, hops=0):
    return (op | lvl << 5 | snoop << 19 | lock << 24 | dtlb << 26 | lvlnum << 33 |
            remote << 37 | snoopx << 38 | blk << 40 | hops << 43)


MEM = [  # (ip, addr, weight, data_src, phys_addr, page size)
    (LIB + 0x100, LIB + 0x8000, 30, ds(op=2, lvl=0x08 | 0x02, snoop=0x02, lock=2, dtlb=0x08 | 0x02, lvlnum=1), 0x12345000, 4096),
    (LIB + 0x100, LIB + 0x8000, 42, ds(op=2, lvl=0x08 | 0x02, snoop=0x02, lock=2, dtlb=0x08 | 0x02, lvlnum=1), 0x12345000, 4096),
    (LIB + 0x104, 0x5000000, 250, ds(op=2, lvl=0x80 | 0x04, snoop=0x08, lock=1, dtlb=0x10 | 0x04, lvlnum=13, blk=2), 0x9000, 2 << 20),
    (LIB + 0x108, 0x5000040, 7, ds(op=4, lvl=0x20 | 0x02, snoop=0x10, dtlb=0x20 | 0x02, lvlnum=2, blk=4, remote=1), 0, 1 << 30),
    (LIB + 0x10c, 0x5000080, 0, ds(op=8, lvl=0x100 | 0x40, snoopx=1, dtlb=0x40, lvlnum=3, blk=6), 0, 0),
    (LIB + 0x110, 0x50000c0, 3, ds(op=16, lvl=0x400, snoop=0x04 | 0x02, dtlb=0x01, hops=2, lvlnum=11), 0, 4096),
    (0xffffffff81000100, 0xffff888000001000, 11, ds(op=1, lvl=1, snoop=1, lock=1, dtlb=1, lvlnum=15, blk=1), 0, 4096),
    (LIB + 0x114, 0x5000100, 5, 0, 0, 0),
    (LIB + 0x118, 0x5000140, 9, ds(op=2, lvl=0x1000 | 0x2000 | 0x02, lvlnum=10, hops=1), 0, 16384),
    # one data address from two functions: perf's rows of symbol_daddr split by the sample's own
    (LIB + 0x120, 0x5000200, 2, ds(op=2, lvl=0x08 | 0x02), 0, 4096),
    (LIB + 0x124, 0x5000200, 2, ds(op=2, lvl=0x08 | 0x02), 0, 4096),
]


def mem_data(path, bad=False):
    st = IP | TID | TIME | ADDR | CPU | PERIOD | WEIGHT | DATA_SRC | PHYS_ADDR | PAGE_SIZE
    at = attr(1, 0, st, 0)
    recs = [comm(42, "memtest"), mmap2(42, LIB, 0x10000, "/nonexistent/libmem.so")]
    t = 1000000
    for ip, addr, w, src, phys, page in MEM:
        misc = 1 if ip >= 1 << 63 else 2
        body = struct.pack("<QIIQQIIQQQQQ", ip, 42, 42, t, addr, 0, 0, 4000, w, src, phys, page)
        if bad and w == 250:
            body = body[:-28]  # cut inside its DATA_SRC
        recs.append(rec(9, misc, body))
        t += 1000
    recording(path, at, recs, common_feats(at, "cpu-clock"))


def build_id_feat(pid, path, bid):
    """HEADER_BUILD_ID: one user DSO's build id (20 bytes, BUILD_ID_SIZE)."""
    name = path.encode() + b"\0"
    name += b"\0" * (-len(name) % 64)
    body = struct.pack("<i", pid) + bid + b"\0" * 4
    body = body[:4 + 20] + struct.pack("<BBH", 20, 0, 0) + name
    return struct.pack("<IHH", 0, 2 | 1 << 15, 8 + len(body)) + body


# tests/fixtures-src/cpu.c as tests/record-fixtures.sh built it (its copy in
# tests/data/buildid): buf, 0x40000 bytes at 0x4040 (.bss), completed.0 at
# 0x4020 (.bss), __dso_handle at 0x4018 (.data), main at 0x1205; its LOAD
# segments put .data and .bss at file offset vaddr - 0x1000.
CPU_BIN = "/tmp/perfnav-fixtures/cpu"
CPU_BID = bytes.fromhex("16ca1edb8cc7f422367b16e6b65dde79dfaa7552")
PIE, PIE2 = 0x555555554000, 0x565656560000


def pie_maps(pid, base):
    """cpu mapped as the kernel and ld.so map a PIE: text, then .data/.bss's
    file pages, then the rest of .bss as anonymous memory."""
    return [mmap2(pid, base + 0x1000, 0x1000, CPU_BIN, 0x1000, 5),
            mmap2(pid, base + 0x3000, 0x2000, CPU_BIN, 0x2000, 3),
            mmap2(pid, base + 0x5000, 0x40000, "//anon", 0, 3, 0)]


# the kernel, as tests/data/mem-obj.kallsyms (perf report --kallsyms) names it
KTEXT, KDATA = 0xffffffff81000000, 0xffffffff82000000


def kernel_mmap():
    """perf record's PERF_RECORD_MMAP of the kernel (pid -1, its _text in pgoff)."""
    body = struct.pack("<iIQQQ", -1, 0, KTEXT, 0x2000000, KTEXT)
    return rec(1, 1, body + cstr("[kernel.kallsyms]_text"))


def wst(weight, ins_lat=0, p_stage=0):
    return weight | ins_lat << 32 | p_stage << 48


L1 = ds(op=2, lvl=0x08 | 0x02, snoop=0x02, dtlb=0x08 | 0x02, lvlnum=1)
RAM = ds(op=2, lvl=0x80 | 0x04, snoop=0x08, dtlb=0x10 | 0x04, lvlnum=13)
MEM_OBJ = [  # (pid, ip, addr, weight struct, data_src, phys_addr)
    (42, PIE + 0x1150, PIE + 0x4040, wst(10, 3), L1, 0x7000040),   # buf+0x0
    (42, PIE + 0x1150, PIE + 0x4040, wst(10, 3), L1, 0x7000040),   # the same, again
    (42, PIE + 0x1150, PIE + 0x4050, wst(20, 5, 7), L1, 0x7000050),  # buf+0x10, one line
    (42, PIE + 0x1160, PIE + 0x4100, wst(300, 40), RAM, 0x7000100),  # buf+0xc0
    (42, PIE + 0x1160, PIE + 0x4020, wst(6, 1), L1, 0x7000020),    # completed.0
    (42, PIE + 0x1160, PIE + 0x4018, wst(4, 2), L1, 0x7000018),    # __dso_handle: its line
    (42, PIE + 0x1170, PIE + 0x1205, wst(8), L1, 0x6000205),       # main: a function
    (42, PIE + 0x1170, PIE + 0x6000, wst(12), RAM, 0x9000000),     # .bss past the file: anon
    (42, PIE + 0x1170, PIE + 0x6010, wst(14), RAM, 0x9000010),     # its line again
    (43, PIE2 + 0x1150, PIE2 + 0x4048, wst(10, 3), L1, 0x8000048),  # buf+0x8, another process
    (43, PIE2 + 0x1170, PIE + 0x6000, wst(16), RAM, 0xa000000),    # another process's anon
    (43, PIE2 + 0x1170, 0x7fff0000, wst(2), L1, 0),                # no map
    (42, KTEXT + 0x100, KDATA + 0x8, wst(24, 9), L1, 0x1000008),   # the kernel's jiffies+0x8
    (42, KTEXT + 0x100, KDATA + 0x48, wst(18), RAM, 0x1000048),    # its memobj_kbuf+0x8
]


def mem_obj_data(path):
    st = IP | TID | TIME | ADDR | CPU | PERIOD | WEIGHT_STRUCT | DATA_SRC | PHYS_ADDR | PAGE_SIZE
    at = attr(1, 0, st, 0)
    recs = [kernel_mmap(), comm(42, "memobj"), comm(43, "memobj2")]
    recs += pie_maps(42, PIE) + pie_maps(43, PIE2)
    t = 1000000
    for pid, ip, addr, w, src, phys in MEM_OBJ:
        body = struct.pack("<QIIQQIIQQQQQ", ip, pid, pid, t, addr, pid - 42, 0, 4000, w, src, phys,
                           4096)
        recs.append(rec(9, 1 if ip >= KTEXT else 2, body))
        t += 1000
    feats = common_feats(at, "cpu-clock")
    feats[2] = build_id_feat(-1, CPU_BIN, CPU_BID)
    recording(path, at, recs, feats)


if __name__ == "__main__":
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    branch_data(d + "/branch.data")
    mem_data(d + "/mem.data")
    mem_obj_data(d + "/mem-obj.data")
    branch_data(d + "/branch-bad.data", True)
    mem_data(d + "/mem-bad.data", True)
