#!/usr/bin/env python3
"""A LIME file of 70 fields (t_qio's first field, copied) is verified to the
last one: a byte changed in field 70's data makes `lattio verify` exit 1
naming record 281, the text and JSON reports list all 70 fields; the same
file without the change passes with 70 checksums (the report once stopped
at 64 and said ok)."""
from fieldutil import tu, verify_json

N = 70


def build(flip_last):
    recs = tu.parse_lime(tu.read(tu.data_path("t_qio.intel-scalar.lime")))
    out = [(r["type"], r["payload"], r["mb"], r["me"]) for r in recs[:2]]
    for k in range(N):
        for r in recs[2:6]:
            payload = r["payload"]
            if flip_last and k == N - 1 and r["type"] == b"scidac-binary-data":
                b = bytearray(payload)
                b[len(b) // 2] ^= 0x10
                payload = bytes(b)
            out.append((r["type"], payload, r["mb"], r["me"]))
    return tu.make_lime(out)


def main():
    last = 2 + 4 * (N - 1) + 3  # 1-based record number of field 70's binary record
    tu.write("many.lime", build(False))
    p, data = verify_json(["many.lime"])
    tu.check_eq(p.returncode, 0, "70 intact fields: exit status")
    recs = (data or [{}])[0].get("binary_records", [])
    tu.check_eq(len(recs), N, "every field in the JSON report")
    tu.check(all(r.get("ok") for r in recs), "every field verified")
    tu.check_eq(recs[-1].get("record") if recs else None, last, "the last field's record number")

    tu.write("many.lime", build(True))
    p, data = verify_json(["many.lime"])
    tu.check_eq(p.returncode, 1, "field 70 damaged: exit status")
    recs = (data or [{}])[0].get("binary_records", [])
    tu.check_eq([r.get("ok") for r in recs], [True] * (N - 1) + [False], "only field 70 fails")
    problems = " ".join((data or [{}])[0].get("problems", []))
    tu.check("record %d" % last in problems, "the problem names record %d: %r" % (last, problems))
    p = tu.run(["verify", "many.lime"])
    out = p.stdout.decode()
    tu.check(p.returncode == 1 and "FAILED" in out and ("record %d" % last) in out,
             "text report names the damaged record: %r" % out[-400:])
    tu.finish()


if __name__ == "__main__":
    main()
