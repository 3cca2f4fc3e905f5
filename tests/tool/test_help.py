#!/usr/bin/env python3
"""--help of the command and of every subcommand exits 0 with a usage text;
--version; unknown command and no command exit 2."""
import toolutil as tu

COMMANDS = ["info", "check", "extract", "pack", "unpack", "verify", "convert", "container", "bench"]


def main():
    p = tu.run(["--help"])
    tu.check(p.returncode == 0 and b"usage: lattio COMMAND" in p.stdout, "lattio --help")
    for c in COMMANDS:
        tu.check(b"  " + c.encode() in p.stdout, "%s listed in --help" % c)
        for form in ([c, "--help"], [c, "-h"], ["help", c], [c, "x", "--help"]):
            q = tu.run(form)
            tu.check(q.returncode == 0 and q.stdout.startswith(b"usage: lattio " + c.encode()),
                     "%s exits 0 with usage" % form)
    p = tu.run(["--version"])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"lattio 0."), "--version")
    p = tu.run([])
    tu.check(p.returncode == 2 and b"usage" in p.stderr, "no command")
    p = tu.run(["frobnicate"])
    tu.check(p.returncode == 2 and p.stderr == b"lattio: unknown command 'frobnicate' (try 'lattio --help')\n",
             "unknown command")
    tu.finish()


tu.scratch()
main()
