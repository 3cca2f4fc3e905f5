#!/usr/bin/env python3
"""scale_table.py -- the Markdown tables of bench/scale.sh from the count
tool's lines (bench/iocount.c): one row per approach and job shape.

usage: scale_table.py compare|ranks FILE.jsonl
"""
import json
import sys

# (tag, phase) -> the approach's name in the table
COMPARE = [
    ("lattice-aggregate", "lattio_write", "lattio aggregate (default across nodes)"),
    ("lattice-collective", "lattio_write", "lattio collective"),
    ("lattice-independent", "lattio_write", "lattio independent"),
    ("lattice-aggregate", "lemon_write", "Lemon's approach (ROMIO default hints)"),
    ("lattice-romio-cb", "lemon_write", "ROMIO collective buffering, cb_nodes = nodes"),
    ("h5", "plain write", "plain collective parallel HDF5"),
    ("h5", "lime write", "lattio field write (ILDG, checksum)"),
    ("h5", "h5 write", "lattio HDF5 field write"),
    ("lattice-aggregate", "lattio_read", "lattio read, aggregate"),
    ("lattice-independent", "lattio_read", "lattio read, independent (default)"),
    ("lattice-aggregate", "lemon_read", "Lemon's approach read (ROMIO default)"),
    ("lattice-romio-cb", "lemon_read", "ROMIO collective buffering read"),
    ("h5", "plain read", "plain collective parallel HDF5 read"),
]


def mib(x):
    return "%.2f" % (x / 1048576.0)


def last(rows, tag, phase, shape):
    found = [r for r in rows if r["tag"] == tag and r["phase"] == phase and shape(r)]
    return found[-1] if found else None


def compare(rows):
    shapes = sorted({(r["nodes"], r["ranks"]) for r in rows})
    print("| approach | nodes x ranks/node | collective calls / rank | agreement bytes / rank | messages to other "
          "nodes | bytes to other nodes / payload | write calls (max / rank) | not whole blocks | shorter than a "
          "block | blocks of 2+ ranks | read calls | opens+syncs+truncates | extra heap / rank (MiB) | "
          "MPI windows / rank (MiB) |")
    print("|---" * 14 + "|")
    for tag, phase, name in COMPARE:
        for nodes, ranks in shapes:
            r = last(rows, tag, phase, lambda x: x["nodes"] == nodes and x["ranks"] == ranks)
            if not r:
                continue
            payload = max(r["wbytes"][0], 1) if "write" in phase else None
            moved = "%.3f" % (r["xbytes"][0] / payload) if payload else "%s B" % r["xbytes"][0]
            print("| %s | %dx%d | %d | %d | %d | %s | %d (%d) | %d | %d | %d | %d | %d | %s | %s |" % (
                name, nodes, ranks // nodes, r["coll"][2], r["cbytes"][2], r["xmsgs"][0], moved,
                r["writes"][0], r["writes"][2], r["unaligned"][0], r["small"][0], r["shared_blocks"],
                r["reads"][0], r["fsops"][0], mib(r["heap"][2]), mib(r["mpimem"][2])))


def ranks(rows):
    print("| ranks | nodes | call | collective calls / rank | agreement bytes / rank | agreement bytes / rank / "
          "ranks | CPU s / rank (max) | wall s | extra heap / rank, mean / max (KiB) | MPI windows / rank (KiB) | "
          "write calls | blocks of 2+ ranks |")
    print("|---" * 12 + "|")
    for r in sorted(rows, key=lambda x: (x["phase"], x["ranks"])):
        print("| %d | %d | %s | %d | %d | %.1f | %.3f | %.2f | %d / %d | %d | %d | %d |" % (
            r["ranks"], r["nodes"], r["phase"], r["coll"][2], r["cbytes"][2], r["cbytes"][2] / r["ranks"],
            r["cpu_max"], r["wall_max"], r["heap"][0] // r["ranks"] // 1024, r["heap"][2] // 1024,
            r["mpimem"][2] // 1024, r["writes"][0], r["shared_blocks"]))


def main():
    mode, path = sys.argv[1], sys.argv[2]
    rows = [json.loads(line) for line in open(path)]
    {"compare": compare, "ranks": ranks}[mode](rows)


if __name__ == "__main__":
    main()
