#!/usr/bin/env python3
"""`lattio extract --type T [--nth K]` picks the K-th record of that type
(records sliced independently), in every real file, for every type."""
import toolutil as tu


def main():
    for name in tu.LIME_FILES:
        path = tu.data_path(name)
        recs = tu.parse_lime(tu.read(path))
        by_type = {}
        for r in recs:
            by_type.setdefault(r["type"].decode(), []).append(r["payload"])
        for t, payloads in by_type.items():
            p = tu.run(["extract", path, "--type", t])
            tu.check(p.returncode == 0 and p.stdout == payloads[0], "%s --type %s" % (name, t))
            for k, want in enumerate(payloads, 1):
                p = tu.run(["extract", path, "--type=%s" % t, "--nth", str(k), "-o", "o.bin"])
                tu.check(p.returncode == 0 and tu.read("o.bin") == want, "%s --type %s --nth %d" % (name, t, k))
    # t_qio has three scidac-binary-data records of 4096, 36864, 147456 bytes
    q = tu.data_path("t_qio.intel-scalar.lime")
    sizes = [len(tu.run(["extract", q, "--type", "scidac-binary-data", "--nth", str(k)]).stdout)
             for k in (1, 2, 3)]
    tu.check_eq(sizes, [4096, 36864, 147456], "t_qio binary sizes")
    tu.finish()


tu.scratch()
main()
