"""Shared by the tool_field tests: toolutil from ../tool plus JSON running."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu  # noqa: E402


def verify_json(paths):
    p = tu.run(["verify", "--json"] + list(paths))
    try:
        data = json.loads(p.stdout.decode())
    except ValueError:
        data = None
    return p, data
