"""check_qdp_file.py FILE.h5 LATTIO -- lattio reads a file QDP++'s HDF5Writer
wrote (scripts/qdpxx-proof.sh): /cfg/U, /prop and /real equal, value for
value, to the arrays lattio wrote as LIME (fields.npz), with the shapes of
their types; `lattio verify --json` computes SciDAC checksums of QDP++'s data
equal to the ones stored in gauge.lime, prop.lime and real.lime (which QIO
checked when QDP++ read them).  Prints one line; exits 1 on a difference."""
import json
import subprocess
import sys

import numpy as np

import lattio


def sums(lattio_cmd, *files):
    out = subprocess.run([lattio_cmd, "verify", "--json"] + list(files), capture_output=True, check=False)
    reps = json.loads(out.stdout)
    reps = reps if isinstance(reps, list) else [reps]
    return [(b["suma"], b["sumb"]) for r in reps for b in r["binary_records"]]


def main(path, lattio_cmd):
    want = np.load("fields.npz")
    bad = []
    for obj, key in (("/cfg/U", "u"), ("/prop", "prop"), ("/real", "real")):
        a = lattio.load("%s:%s" % (path, obj))
        if a.shape != want[key].shape or not np.array_equal(a, want[key]):
            bad.append("%s: shape %s, equal %s" % (obj, a.shape, a.shape == want[key].shape and np.array_equal(a, want[key])))
    mine = sums(lattio_cmd, path)
    stored = sums(lattio_cmd, "gauge.lime", "prop.lime", "real.lime")
    if mine != stored:
        bad.append("checksums %s against the LIME files' %s" % (mine, stored))
    if bad:
        print("FAILED: lattio on %s: %s" % (path, "; ".join(bad)))
        return 1
    print("ok: lattio reads %s: U %s, prop %s, real %s equal to what it wrote; SciDAC checksums of QDP++'s data "
          "equal the LIME files' stored ones %s" % (path, want["u"].shape, want["prop"].shape, want["real"].shape, mine))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
