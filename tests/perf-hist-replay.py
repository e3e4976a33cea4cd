#!/usr/bin/env python3
"""Replay how perf report fills its children table for `--sort sym`.

A diagnostic, not part of `make check`.  perf report keeps hist entries in a
red-black tree ordered by its symbol sort key, which compares two symbols by
name when either is an inlined frame and by address otherwise.  That is not a
total order: once inlined entries sit high in the tree, a search for a real
symbol can walk past the node that already holds it and a second entry with
the same name is created.  This script rebuilds perf's per-sample entry
sequence from perf's own output and inserts it into a red-black tree with that
comparison, so one can see which sample creates which duplicate and why.

It asks perf (which must be able to resolve the recording) for:
  perf script --[no-]inline -F time,ip,sym,dso  frames of each sample (callee order)
  perf report --sort time -g ORDER,...,flat  the names perf gives each frame
  perf report --sort time,sym                each sample's own symbol
Symbol ranges come from `nm` on the files named with --dso SHORT=FILE, or
found in the build-id cache from `perf buildid-list`.

Limits: user-space samples whose frames all resolve; one event; no kernel,
JIT or unresolved frames.

usage: perf-hist-replay.py [--order caller|callee] [--verbose-names]
           [--dso SHORT=FILE]... [--watch NAME,...] [--expect TSV]
           --buildid-dir DIR [--kallsyms FILE] RECORDING
"""
import argparse, atexit, bisect, collections, os, re, shutil, subprocess, sys, tempfile


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout


def cache_with_links(bdir):
    """perf needs .build-id/xx/yyy to be symlinks; some copies keep the target as text."""
    top = os.path.join(bdir, ".build-id")
    if not os.path.isdir(top):
        return bdir
    needs = any(os.path.isfile(os.path.join(top, d, f)) and not os.path.islink(os.path.join(top, d, f))
                for d in os.listdir(top) for f in os.listdir(os.path.join(top, d)))
    if not needs:
        return bdir
    tmp = tempfile.mkdtemp(prefix="hist-replay-")
    atexit.register(shutil.rmtree, tmp, True)
    dst = os.path.join(tmp, "buildid")
    shutil.copytree(bdir, dst, symlinks=True)
    for d in os.listdir(os.path.join(dst, ".build-id")):
        for f in os.listdir(os.path.join(dst, ".build-id", d)):
            p = os.path.join(dst, ".build-id", d, f)
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p) as fh:
                    target = fh.read().strip()
                os.chmod(p, 0o644)
                os.remove(p)
                os.symlink(target, p)
    return dst


def symbol_ranges(path):
    """Sorted (start, end) of function symbols, zero-size ones ending at the next start."""
    size = {}
    for args in (["nm", "-S", "--defined-only", path], ["nm", "-S", "-D", "--defined-only", path]):
        for line in run(args).splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tTwWiI":
                s = int(f[0], 16)
                size[s] = max(size.get(s, 0), int(f[1], 16))
            elif len(f) == 3 and f[1] in "tTwW":
                size.setdefault(int(f[0], 16), 0)
    starts = sorted(size)
    return [(s, s + size[s] if size[s] else (starts[i + 1] if i + 1 < len(starts) else s))
            for i, s in enumerate(starts)]


class Sym:
    __slots__ = ("name", "start", "end", "inlined", "dso")

    def __init__(self, name, start, end, inlined, dso):
        self.name, self.start, self.end, self.inlined, self.dso = name, start, end, inlined, dso

    def __repr__(self):
        return "%s%s @%s [%#x,%#x)" % (self.name[:60], " (inlined)" if self.inlined else "",
                                       self.dso, self.start, self.end)


def bytecmp(a, b):
    a, b = a.encode(), b.encode()
    return (a > b) - (a < b)


def perf_sym_cmp(old, new):
    """perf's symbol sort key, old = the entry in the tree, new = the one looked up."""
    c = bytecmp(new.dso, old.dso)
    if c:
        return c
    if old is new:
        return 0
    if old.inlined or new.inlined:
        c = bytecmp(old.name, new.name)
        if c:
            return c
        if old.start <= new.end and old.end >= new.start:
            return 0
    if old.start != new.start:
        return new.start - old.start
    return new.end - old.end


class Node:
    __slots__ = ("sym", "kid", "up", "red", "acc", "own", "seq")

    def __init__(self, sym, seq):
        self.sym, self.kid, self.up, self.red, self.acc, self.own, self.seq = sym, [None, None], None, True, 0, 0, seq


class Tree:
    """Red-black tree; lookups go left when the comparison is negative, as perf's do."""

    def __init__(self):
        self.root, self.n = None, 0

    def _rotate(self, x, d):  # d = 0: left rotation
        y = x.kid[1 - d]
        x.kid[1 - d] = y.kid[d]
        if y.kid[d]:
            y.kid[d].up = x
        y.up = x.up
        if not x.up:
            self.root = y
        else:
            x.up.kid[0 if x is x.up.kid[0] else 1] = y
        y.kid[d] = x
        x.up = y

    def find_or_add(self, sym, path=None):
        p, parent, side = self.root, None, 0
        while p:
            c = perf_sym_cmp(p.sym, sym)
            if path is not None:
                path.append((p, c))
            if c == 0:
                return p, False
            parent, side = p, (0 if c < 0 else 1)
            p = p.kid[side]
        z = added = Node(sym, self.n)
        self.n += 1
        z.up = parent
        if parent:
            parent.kid[side] = z
        else:
            self.root = z
        while z.up and z.up.red:
            g = z.up.up
            d = 0 if z.up is g.kid[0] else 1
            u = g.kid[1 - d]
            if u and u.red:
                z.up.red = u.red = False
                g.red = True
                z = g
                continue
            if z is z.up.kid[1 - d]:
                z = z.up
                self._rotate(z, d)
            z.up.red = False
            g.red = True
            self._rotate(g, 1 - d)
        self.root.red = False
        return added, True

    def nodes(self):
        out, stack, p = [], [], self.root
        while stack or p:
            while p:
                stack.append(p)
                p = p.kid[0]
            p = stack.pop()
            out.append(p)
            p = p.kid[1]
        return out


def parse_script(text):
    """Per sample, the frames of perf script: [ip, dso or None for an inlined record]."""
    samples = collections.OrderedDict()
    cur = None
    for line in text.splitlines():
        m = re.match(r"^\s*(\d+\.\d+):\s*$", line)
        if m:
            cur = samples.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+) (.*)$", line)
        if m and cur is not None:
            rest = m.group(2)
            dso = None if rest.endswith("(inlined)") else re.search(r"\(([^()]*)\)$", rest).group(1)
            cur.append([int(m.group(1), 16), dso and os.path.basename(dso)])
    return samples


def give_dsos(expanded, plain):
    """Inlined records carry no DSO: take their frame's from the listing without --inline."""
    for t, lines in expanded.items():
        frames, j = plain[t], 0
        for ln in lines:
            while frames[j][0] != ln[0]:
                j += 1
            ln[1] = frames[j][1]


def parse_flat(text):
    samples = collections.OrderedDict()
    cur = None
    for line in text.splitlines():
        m = re.match(r"^\s+[\d.]+%\s+\d+\s+(\d+\.\d+)\s*$", line)
        if m:
            cur = samples.setdefault(m.group(1), [])
            continue
        if cur is None or not line.strip() or re.match(r"^\s+[\d.]+%$", line) or line.startswith("#"):
            continue
        name = line.strip()
        inl = name.endswith(" (inlined)")
        cur.append((name[:-10] if inl else name, inl))
    return samples


def parse_self(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s+[\d.]+%\s+\d+\s+(\d+\.\d+)\s+(?:0x[0-9a-f]+\s+\S\s+)?\[.\] (.*?)\s*$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("recording")
    ap.add_argument("--buildid-dir", required=True)
    ap.add_argument("--kallsyms")
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--order", choices=["caller", "callee"], default="caller",
                    help="callchain order perf uses (perf report --children defaults to caller)")
    ap.add_argument("--verbose-names", action="store_true", help="as perf report -v (long names)")
    ap.add_argument("--dso", action="append", default=[], help="SHORT=FILE to take symbols from")
    ap.add_argument("--watch", default="", help="comma-separated names: print the searches creating their entries")
    ap.add_argument("--expect", help="perf's children TSV (EVENT CHILDREN SELF SAMPLES SYM) to compare with")
    a = ap.parse_args()

    bdir = cache_with_links(a.buildid_dir)
    base = [a.perf, "--buildid-dir", bdir]
    com = ["-i", a.recording] + (["--kallsyms", a.kallsyms] if a.kallsyms else [])
    v = ["-v"] if a.verbose_names else []
    script = base + ["script"] + com + ["-F", "time,ip,sym,dso", "--ns"]
    frames = parse_script(run(script + ["--inline"]))
    give_dsos(frames, parse_script(run(script + ["--no-inline"])))
    rep = ["report"] + com + ["--stdio", "--no-children", "--ns", "--time-quantum", "1ns", "-n",
                              "--percent-limit", "0"]
    names = parse_flat(run(base + rep + ["--sort", "time", "-g", "%s,0,%s,function,flat" % (a.order, a.order)] + v))
    selfs = parse_self(run(base + rep + ["--sort", "time,sym", "-g", "none"] + v))

    files = dict(x.split("=", 1) for x in a.dso)
    longname = {}
    for line in run(base + ["buildid-list"] + ["-i", a.recording]).splitlines():
        bid, path = line.split(None, 1)
        longname[os.path.basename(path)] = path
        for kind in ("debug", "elf"):
            cand = os.path.join(bdir, path.lstrip("/"), bid, kind)
            if os.path.basename(path) not in files and os.path.exists(cand):
                files[os.path.basename(path)] = cand
    ranges = {}

    def base_of(dso, ip):
        if dso not in ranges:
            if dso not in files:
                sys.exit("no symbol file for %s: give --dso %s=FILE" % (dso, dso))
            ranges[dso] = symbol_ranges(files[dso])
        t = ranges[dso]
        i = bisect.bisect_right(t, (ip, float("inf"))) - 1
        return t[i]

    def dso_key(dso):
        return longname.get(dso, dso) if a.verbose_names else dso

    if list(frames) != list(names):
        sys.exit("perf script and perf report list different samples")
    watch = set(filter(None, a.watch.split(",")))
    tree, total = Tree(), 0
    for t, fr in frames.items():
        nm = names[t]
        if len(fr) != len(nm):
            sys.exit("sample %s: %d frames but %d names" % (t, len(fr), len(nm)))
        if t not in selfs:
            sys.exit("sample %s: no symbol of its own" % t)
        total += 1
        ordered = fr[::-1] if a.order == "caller" else fr
        s, e = base_of(fr[0][1], fr[0][0])
        node, _ = tree.find_or_add(Sym(selfs[t], s, e, False, dso_key(fr[0][1])))
        node.acc += 1
        node.own += 1
        done = [node]  # the entries this sample already counts in
        for (ip, dso), (name, inl) in zip(ordered, nm):
            s, e = base_of(dso, ip)
            sym = Sym(name, s, e, inl, dso_key(dso))
            if any(perf_sym_cmp(d.sym, sym) == 0 for d in done):
                continue
            path = [] if name in watch else None
            node, new = tree.find_or_add(sym, path)
            if path is not None and new:
                print("sample %s: new entry #%d for %r; search path:" % (t, node.seq, sym))
                for p, c in path:
                    print("    #%d %r -> %s" % (p.seq, p.sym, "left" if c < 0 else "right"))
            node.acc += 1
            done.append(node)

    rows = sorted(tree.nodes(), key=lambda n: (-n.acc, -n.own, n.sym.name))
    got = ["%.2f\t%.2f\t%s%s" % (100.0 * n.acc / total, 100.0 * n.own / total, n.sym.name,
                                 " (inlined)" if n.sym.inlined else "") for n in rows]
    if not a.expect:
        print("\n".join(got))
    else:
        want = []
        for line in open(a.expect):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 5:
                want.append("%.2f\t%.2f\t%s" % (float(f[1]), float(f[2]), f[4][4:].strip()))
        gc, wc = collections.Counter(got), collections.Counter(want)
        print("replay %d rows, perf %d rows, %d in common" % (len(got), len(want), sum((gc & wc).values())))
        for r in sorted((wc - gc).elements()):
            print("only perf:   " + r)
        for r in sorted((gc - wc).elements()):
            print("only replay: " + r)


if __name__ == "__main__":
    main()
