"""Time one reader of /tmp/big_tm.lime: lyncs (lyncs_io.load, in a venv with numpy<2 and lyncs_io) or lattio; native complex128 result. Usage: peer.py lyncs|lattio"""
import sys, time, os, numpy as np
which = sys.argv[1]
os.sync()
t = time.perf_counter()
if which == 'lyncs':
    import lyncs_io
    a = lyncs_io.load('/tmp/big_tm.lime', format='lime')
    a = np.ascontiguousarray(a, dtype='<c16')
elif which == 'lattio':
    import lattio
    a = lattio.load('/tmp/big_tm.lime')
print(which, '%.3f s' % (time.perf_counter() - t), a.shape, a.dtype, float(abs(a).sum()))
