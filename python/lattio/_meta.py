"""Metadata texts as Python values: XML records as nested dicts, tmLQCD's
and MILC's key = value lines as dicts, numbers as numbers.
"""
from __future__ import annotations

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
            return (e.text or "").strip()
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


def _text_dict(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """A record of XML (nested dicts) or of "key = value" lines (tmLQCD's
    xlf-info: plaquette, trajectory nr, beta, ...) as a dict; None else."""
    xml = _xml_dict(text)
    if xml is not None or not text:
        return xml
    pairs = [line.split("=", 1) for line in text.splitlines() if "=" in line]
    return {k.strip(): _number(v.strip().strip('"')) for k, v in pairs} or None


def _number(text: str) -> Union[int, float, str]:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
