#!/usr/bin/env python3
"""What `lattio convert` and `lattio clean` do with a set's publication
(format.md 5.6; the kill harness is field.volumes_publish): a split over a
single file of the same name replaces it (reading the name afterwards gives
the new set, never the old file), a split or join whose output holds its
input is refused naming the output and writes nothing, and `lattio clean
BASE` completes a publication a killed writer left (its journal)."""
import json
import os
import shutil
from fieldutil import tu

SINGLE = tu.data_path("qio-volumes/single/binary_test")
OTHER = tu.data_path("lat.sample.l4444.ildg")


def checksum(path):
    p = tu.run(["verify", "--json", path])
    return json.loads(p.stdout)[0]["binary_records"][0]["suma"]


def shadow():
    shutil.copy(OTHER, "cfg")
    old = checksum("cfg")
    p = tu.run(["convert", SINGLE, "cfg", "--volumes", "part", "--grid", "4,1,1,1"])
    tu.check_eq(p.returncode, 0, "split over a single file: %r" % p.stderr)
    tu.check(not os.path.isfile("cfg") and os.path.isfile("cfg.vol0000"), "the single file replaced by the set")
    tu.check(checksum("cfg") != old and checksum("cfg") == checksum(SINGLE), "reading cfg gives the new set")


def refused():
    p = tu.run(["convert", "cfg", "cfg.vol0001"])
    tu.check(p.returncode == 1 and b"cfg.vol0001" in p.stderr and b"ERR_OUTPUT_IS_INPUT" in p.stderr,
             "join into its own volume: %r" % p.stderr)
    tu.check_eq(checksum("cfg"), checksum(SINGLE), "the set is intact")
    shutil.copy(OTHER, "in")
    p = tu.run(["convert", "in", "in", "--volumes", "multi", "--grid", "2,1,1,1"])
    tu.check(p.returncode == 1 and b"ERR_OUTPUT_IS_INPUT" in p.stderr and not os.path.exists("in.vol0000"),
             "split whose BASE is its input: %r" % p.stderr)
    p = tu.run(["convert", SINGLE, ".", "--volumes", "partdir", "--grid", "4,1,1,1"])
    tu.check(p.returncode == 1 and not os.path.exists("vol0000"), "BASE '.': %r" % p.stderr)


def clean_completes():
    """A journal left as a writer killed after it leaves it: readers refuse,
    clean carries it out."""
    shutil.copy("cfg.vol0003", "cfg.vol0003.lattio-tmp.nohost.1.1.x")
    with open("cfg.lattio-publish", "w") as f:
        f.write("lattio-publish 1\nR\tcfg.vol0003.lattio-tmp.nohost.1.1.x\tcfg.vol0003\nU\tcfg.vol0009\nend\n")
    p = tu.run(["verify", "cfg"])
    tu.check(p.returncode == 1 and b"ERR_INTERRUPTED" in p.stdout + p.stderr, "verify refuses: %r" % p.stdout[-300:])
    p = tu.run(["clean", "cfg"])
    tu.check(p.returncode == 0 and b"completed" in p.stdout, "clean: %r %r" % (p.stdout, p.stderr))
    tu.check(not os.path.exists("cfg.lattio-publish"), "journal removed")
    tu.check_eq(checksum("cfg"), checksum(SINGLE), "the set reads after clean")


def main():
    tu.scratch()
    shadow()
    refused()
    clean_completes()
    tu.finish()


main()
