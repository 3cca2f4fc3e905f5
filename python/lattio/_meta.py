"""Metadata texts as Python values: XML records as nested dicts, tmLQCD's
and MILC's key = value lines as dicts (tmLQCD's records, MILC's info
element inside the record XML), numbers as numbers (XML elements too,
except checksums and version labels).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any, Dict, Optional, Union


def _xml_dict(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """An XML document as nested dicts ({tag: text or dict}, repeated tags
    as lists), None when it is not XML.  Python's expat resolves no external
    entity and bounds entity expansion."""
    if not text or "<" not in text:
        return None
    try:
        root = ET.fromstring(text.strip().strip("\0"))
    except (ET.ParseError, ValueError):
        return None

    def conv(e):
        if len(e) == 0:
            text = (e.text or "").strip()
            if e.tag.split("}")[-1] in _TEXT_TAGS:
                return text
            return _kv_dict(text) if _KV_LINES.fullmatch(text) else _number(text)
        out: Dict[str, Any] = {}
        for c in e:
            tag = c.tag.split("}")[-1]
            v = conv(c)
            if tag in out:
                out[tag] = out[tag] if isinstance(out[tag], list) else [out[tag]]
                out[tag].append(v)
            else:
                out[tag] = v
        return out

    return {root.tag.split("}")[-1]: conv(root)}


_KV_LINE = r"[ \t]*[A-Za-z_][\w.\[\]-]*[ \t]*=[^\n]*"
# two or more "key = value" lines: MILC's info element (gauge.beta11 = 7.0, ...)
_KV_LINES = re.compile(r"%s(\n%s)+" % (_KV_LINE, _KV_LINE))


def _kv_dict(text: str) -> Dict[str, Any]:
    """Lines of "key = value" (a line of several "a = x, b = y" pairs gives
    each its key) as a dict of typed values, quotes stripped."""
    pairs = []
    for line in text.splitlines():
        parts = line.split(",")
        pieces = parts if len(parts) > 1 and all("=" in p for p in parts) else [line]
        pairs += [p.split("=", 1) for p in pieces if "=" in p]
    return {k.strip(): _number(v.strip().strip('"')) for k, v in pairs}


def _text_dict(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """A record of XML (nested dicts) or of "key = value" lines (tmLQCD's
    xlf-info: plaquette, trajectory nr, beta, ...; a line of several
    "a = x, b = y" pairs gives each its key) as a dict; None else."""
    xml = _xml_dict(text)
    if xml is not None or not text:
        return xml
    return _kv_dict(text) or None


_TEXT_TAGS = ("suma", "sumb", "version")  # hex checksums and version labels stay text
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _number(text: str) -> Union[int, float, str]:
    """A decimal integer or floating-point literal as a number; any other
    text (hex, words, lists, "nan") as it is."""
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text
