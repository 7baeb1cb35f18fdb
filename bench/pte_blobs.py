"""The AOTInductor .so and weights blob of one method's CudaBackend delegate
in an upstream-exported program (ExecuTorch 1.4 layout: the delegate's
processed bytes name the .so in the .pte's named data and the weights in the
.ptd's; docs/, "CUDA payload"), so that torch's shim can drive the same .so
as our backend for that method (gpu_compare.py's aoti_shim column).

Reads just the flatbuffer fields it needs (program.fbs, flat_tensor.fbs),
as the GPU host where it runs has no FlatBuffers package; benchmark tooling
on trusted fixtures, not a loader for untrusted files. gpu_bench.py takes
its fixtures' blobs from here too.
"""
import struct


class Table:
    """One flatbuffer table in `buf` at `pos`."""

    def __init__(self, buf, pos):
        self.buf, self.pos = buf, pos
        self.vt = pos - struct.unpack_from("<i", buf, pos)[0]
        self.nfields = (struct.unpack_from("<H", buf, self.vt)[0] - 4) // 2

    def _at(self, field):
        if field >= self.nfields:
            return None
        off = struct.unpack_from("<H", self.buf, self.vt + 4 + 2 * field)[0]
        return self.pos + off if off else None

    def scalar(self, field, fmt, default=0):
        at = self._at(field)
        return default if at is None else struct.unpack_from("<" + fmt, self.buf, at)[0]

    def _ref(self, field):
        at = self._at(field)
        return None if at is None else at + struct.unpack_from("<I", self.buf, at)[0]

    def table(self, field):
        at = self._ref(field)
        return None if at is None else Table(self.buf, at)

    def bytes(self, field):
        at = self._ref(field)
        if at is None:
            return b""
        n = struct.unpack_from("<I", self.buf, at)[0]
        return bytes(self.buf[at + 4:at + 4 + n])

    def tables(self, field):
        at = self._ref(field)
        if at is None:
            return []
        n = struct.unpack_from("<I", self.buf, at)[0]
        elems = (at + 4 + 4 * i for i in range(n))
        return [Table(self.buf, e + struct.unpack_from("<I", self.buf, e)[0]) for e in elems]


def root(buf, base=0):
    return Table(buf, base + struct.unpack_from("<I", buf, base)[0])


def _named(named_data, segments, data, seg_base, key):
    """The bytes of named data `key` (NamedData: key 0, segment_index 1)."""
    for nd in named_data:
        if nd.bytes(0).decode() == key:
            seg = segments[nd.scalar(1, "I")]  # DataSegment: offset 0, size 1
            start = seg_base + seg.scalar(0, "Q")
            return data[start:start + seg.scalar(1, "Q")]
    raise KeyError(f"no named data {key!r}")


def _processed(prog, pte, seg_base, method):
    """The processed bytes of `method`'s one CudaBackend delegate."""
    for plan in prog.tables(1):  # Program.execution_plan
        if plan.bytes(0).decode() != method:  # ExecutionPlan.name
            continue
        dels = [d for d in plan.tables(7) if d.bytes(0) == b"CudaBackend"]  # .delegates
        if len(dels) != 1:
            raise RuntimeError(f"method {method}: {len(dels)} CudaBackend delegates, not 1")
        ref = dels[0].table(1)  # BackendDelegate.processed
        index = ref.scalar(1, "I")
        if ref.scalar(0, "B") == 1:  # DataLocation.SEGMENT
            seg = prog.tables(4)[index]
            start = seg_base + seg.scalar(0, "Q")
            return pte[start:start + seg.scalar(1, "Q")]
        return prog.tables(3)[index].bytes(0)  # backend_delegate_data[i].data
    raise KeyError(f"no method {method!r}")


def method_blobs(pte, ptd, method):
    """(so, weights) bytes of `method`'s delegate, from the .pte and .ptd bytes."""
    pte_base = struct.unpack_from("<Q", pte, 24)[0] if pte[8:12] == b"eh00" else 0
    prog = root(pte)
    keys = _processed(prog, pte, pte_base, method).decode().split("\n")
    if len(keys) != 2:
        raise RuntimeError(f"method {method}: processed bytes are not 'so_key\\nweights_key'")
    so = _named(prog.tables(7), prog.tables(4), pte, pte_base, keys[0])  # named_data, segments
    if ptd[8:12] != b"FH01":
        raise RuntimeError(".ptd: no FH01 header")
    fb_off, _, ptd_base, _ = struct.unpack_from("<QQQQ", ptd, 16)
    # The FlatBuffer stands alone at fb_off, or is the file's own prefix.
    ft = root(ptd, fb_off if ptd[fb_off + 4:fb_off + 8] == b"FT01" else 0)
    weights = _named(ft.tables(2), ft.tables(1), ptd, ptd_base, keys[1])
    return so, weights
