"""Make a tmLQCD-style ILDG file (pretty ildg-format XML, no NUL, no checksum), 64x32x32x32 double, at /tmp/big_tm.lime: the kind lyncs-io reads (it fails on QIO-written files). Run with the build/pyenv Python."""
import sys, struct, zlib, numpy as np
sys.path.insert(0, '/work/main/tests/tool'); import toolutil as tu
T, Z, Y, X = 64, 32, 32, 32
u = np.random.default_rng(2).standard_normal((T, Z, Y, X, 4, 3, 3, 2)).astype('>f8')
payload = u.tobytes()
fmt = ('<?xml version="1.0" encoding="UTF-8"?>\n<ildgFormat xmlns="http://www.lqcd.org/ildg">\n'
       '  <version>1.0</version>\n  <field>su3gauge</field>\n  <precision>64</precision>\n'
       '  <lx>%d</lx>\n  <ly>%d</ly>\n  <lz>%d</lz>\n  <lt>%d</lt>\n</ildgFormat>' % (X, Y, Z, T)).encode()
with open('/tmp/big_tm.lime', 'wb') as f:
    f.write(tu.lime_header(b'ildg-format', len(fmt), True, False) + fmt + b'\0' * ((8 - len(fmt) % 8) % 8))
    f.write(tu.lime_header(b'ildg-binary-data', len(payload), False, True))
    f.write(payload)
