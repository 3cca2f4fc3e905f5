"""`lattio container` arguments: usage errors exit 2 with a message naming
the subcommand; --help prints the text; nothing is written."""
import os

import ctutil as ct
import toolutil as tu


def usage(args, text):
    p = ct.lattio(["container"] + args)
    tu.check_eq(p.returncode, 2, "%s: exit status 2 (stderr %r)" % (args, p.stderr))
    tu.check(text.encode() in p.stderr, "%s: message %r has %r" % (args, p.stderr, text))
    tu.check(b"try 'lattio container" in p.stderr, "%s: points to --help" % args)


def main():
    ct.options()
    tu.scratch()
    usage([], "missing subcommand")
    usage(["frobnicate"], "unknown subcommand 'frobnicate'")
    usage(["dump"], "missing FILE")
    usage(["dump", "a", "b"], "too many arguments")
    usage(["dump", "--bogus", "a"], "unknown option '--bogus'")
    usage(["split", "a"], "missing PREFIX")
    usage(["cat", "a", "--task"], "needs a value")
    usage(["defrag", "a"], "missing OUT")
    usage(["defrag", "a", "b", "--chunk", "x"], "bad chunk size")
    usage(["repair"], "missing FILE")
    p = ct.lattio(["container", "--help"])
    tu.check(p.returncode == 0 and b"lattio container split FILE PREFIX" in p.stdout, "--help")
    p = ct.lattio(["container", "cat", "--help"])
    tu.check(p.returncode == 0 and b"defrag" in p.stdout, "cat --help")
    p = ct.lattio(["--help"])
    tu.check(b"container" in p.stdout, "listed in lattio --help")
    tu.check_eq(os.listdir("."), [], "nothing written")
    tu.finish()


main()
