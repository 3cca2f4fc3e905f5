#!/usr/bin/env python3
"""`lattio verify --json` on every real file exits 0 and reports the numbers
of EXPECTED.md, typed in here (not computed by lattio)."""
from fieldutil import tu, verify_json

CHECKSUMS = {  # file: [(record number, bytes per site, suma, sumb)]
    "unity.lime": [(3, 576, "35b49a1b", "b49a1b35")],
    "t_dprec_ildg.lime": [(7, 576, "e6ca40a6", "59cdeef1")],
    "lat.sample.l4444.ildg": [(7, 288, "37affb9c", "2fc07bbf")],
    "t_qio.intel-scalar.lime": [(5, 8, "db7837af", "633915aa"), (9, 72, "8bf04559", "8ee2aee7"),
                                (13, 288, "d716ee56", "7d701386")],
    "lime_writer_test1.lime": [],
}
GAUGE = {  # file: (format, precision, plaquette, link trace, tolerance)
    "unity.lime": ("ildg", 64, 1.0, 1.0, 1e-12),
    "t_dprec_ildg.lime": ("ildg", 64, 0.038242289410, 0.463032210005, 1e-12),
    "lat.sample.l4444.ildg": ("ildg", 32, 0.594850158947, 0.646758737419, 1e-12),
    "t_nersc.cfg": ("nersc", 32, 0.0382422893, 0.4630322098, 1e-10),
}
OFFSETS = {"unity.lime": 920, "t_dprec_ildg.lime": 1936, "lat.sample.l4444.ildg": 2184}


def main():
    files = tu.ALL_FILES
    p, data = verify_json([tu.data_path(f) for f in files])
    tu.check_eq(p.returncode, 0, "exit status")
    tu.check(data is not None and len(data) == len(files), "one JSON object per file")
    if not data:
        tu.finish()
    for name, obj in zip(files, data):
        tu.check(obj["ok"] is True and obj["problems"] == [], "%s ok" % name)
        recs = [(r["record"], r["site_bytes"], r["suma"], r["sumb"]) for r in obj["binary_records"]]
        if name in CHECKSUMS:
            tu.check_eq(recs, CHECKSUMS[name], "%s checksums" % name)
            for r in obj["binary_records"]:
                tu.check(r["ok"] and r["stored_suma"] == r["suma"] and r["stored_sumb"] == r["sumb"],
                         "%s stored sums" % name)
        if name in OFFSETS:
            tu.check_eq(obj["binary_records"][0]["offset"], OFFSETS[name], "%s binary offset" % name)
        if name not in GAUGE:
            tu.check("plaquette" not in obj, "%s: no gauge numbers" % name)
            continue
        fmt, prec, plaq, trace, tol = GAUGE[name]
        tu.check_eq(obj["format"], fmt, "%s format" % name)
        tu.check_eq(obj["precision"], prec, "%s precision" % name)
        tu.check_eq(obj["dims"], [4, 4, 4, 4], "%s dims" % name)
        tu.check(abs(obj["plaquette"] - plaq) < tol, "%s plaquette %r" % (name, obj["plaquette"]))
        tu.check(abs(obj["link_trace"] - trace) < tol, "%s link trace %r" % (name, obj["link_trace"]))
        tu.check(obj["unitarity"] < 1e-6, "%s unitarity" % name)
    nersc = data[files.index("t_nersc.cfg")]
    tu.check_eq(nersc["checksum"]["stored"][0], "717938df", "NERSC stored checksum")
    tu.check_eq(nersc["checksum"]["computed"][0], "717938df", "NERSC computed checksum")
    tu.check_eq(nersc["rows"], 2, "NERSC rows")
    tu.check(abs(nersc["header_plaquette"] - 0.0382422893) < 1e-15, "NERSC header plaquette")
    tu.check(abs(nersc["header_link_trace"] - 0.4630322094) < 1e-15, "NERSC header link trace")
    # the text report, per file, ends in "FILE: ok"
    for name in files:
        q = tu.run(["verify", tu.data_path(name)])
        tu.check(q.returncode == 0 and q.stdout.decode().endswith(tu.data_path(name) + ": ok\n"),
                 "%s text report" % name)
    tu.finish()


tu.scratch()
main()
