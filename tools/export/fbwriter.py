"""A minimal pure-Python FlatBuffers writer (no dependencies).

Objects are laid out front to back: a table is written, then the objects it
refers to after it (uoffsets point forward), and the parent's offset fields
are patched. Field ids are positions; a union takes two ids (type, value).
"""
import struct

_SCALAR = {
    "bool": ("<B", 1), "byte": ("<b", 1), "ubyte": ("<B", 1),
    "short": ("<h", 2), "ushort": ("<H", 2), "int": ("<i", 4), "uint": ("<I", 4),
    "long": ("<q", 8), "ulong": ("<Q", 8), "float": ("<f", 4), "double": ("<d", 8),
}


class Table:
    """fields: list of (id, kind, value); kind is a scalar name, 'str',
    'table', 'vec:<scalar>', 'vec:table', 'vec:str' or 'bytes' (ubyte vector).
    None values are omitted."""

    def __init__(self, *fields):
        self.fields = [f for f in fields if f[2] is not None]


class Writer:
    def __init__(self):
        self.buf = bytearray()

    def _align(self, n):
        while len(self.buf) % n:
            self.buf.append(0)

    def _put(self, fmt, v, pos=None):
        data = struct.pack(fmt, v)
        if pos is None:
            self.buf += data
        else:
            self.buf[pos:pos + len(data)] = data

    def _patch(self, field_pos, target):
        self._put("<I", target - field_pos, field_pos)

    def write_obj(self, kind, value, vec_align=4):
        if kind == "str":
            return self._string(value.encode() if isinstance(value, str) else value)
        if kind == "table":
            return self._table(value)
        if kind == "bytes":
            return self._scalar_vec("ubyte", value, max(vec_align, 1))
        if kind.startswith("vec:"):
            ek = kind[4:]
            if ek in _SCALAR:
                return self._scalar_vec(ek, value, vec_align)
            return self._offset_vec(ek, value)
        raise ValueError(kind)

    def _string(self, b):
        self._align(4)
        pos = len(self.buf)
        self._put("<I", len(b))
        self.buf += b + b"\0"
        return pos

    def _scalar_vec(self, ek, items, align):
        fmt, size = _SCALAR[ek]
        a = max(4, size, align)
        # the element data (after the 4-byte length) must be `a`-aligned
        while (len(self.buf) + 4) % a:
            self.buf.append(0)
        pos = len(self.buf)
        self._put("<I", len(items))
        if ek == "ubyte" and isinstance(items, (bytes, bytearray)):
            self.buf += items
        else:
            for v in items:
                self._put(fmt, v)
        return pos

    def _offset_vec(self, ek, items):
        self._align(4)
        pos = len(self.buf)
        self._put("<I", len(items))
        slots = []
        for _ in items:
            slots.append(len(self.buf))
            self._put("<I", 0)
        for slot, item in zip(slots, items):
            self._patch(slot, self.write_obj(ek, item))
        return pos

    def _table(self, t):
        nfields = (max([f[0] for f in t.fields]) + 1) if t.fields else 0
        # vtable first
        self._align(2)
        vt_pos = len(self.buf)
        vt_size = 4 + 2 * nfields
        self.buf += bytes(vt_size)
        # table: soffset then fields, absolute alignment
        maxal = 4
        for fid, kind, v in t.fields:
            if kind in _SCALAR:
                maxal = max(maxal, _SCALAR[kind][1])
        self._align(maxal)
        tpos = len(self.buf)
        self._put("<i", tpos - vt_pos)
        offs = {}
        deferred = []
        # bigger scalars first keeps padding small
        order = sorted(t.fields, key=lambda f: -(_SCALAR[f[1]][1] if f[1] in _SCALAR else 4))
        for fid, kind, v in order:
            size = _SCALAR[kind][1] if kind in _SCALAR else 4
            self._align(size)
            offs[fid] = len(self.buf) - tpos
            if kind in _SCALAR:
                self._put(_SCALAR[kind][0], int(v) if kind not in ("float", "double") else v)
            else:
                deferred.append((len(self.buf), kind, v))
                self._put("<I", 0)
        tsize = len(self.buf) - tpos
        self._put("<H", vt_size, vt_pos)
        self._put("<H", tsize, vt_pos + 2)
        for fid, off in offs.items():
            self._put("<H", off, vt_pos + 4 + 2 * fid)
        for fpos, kind, v in deferred:
            align = 16 if kind == "bytes" else 4
            self._patch(fpos, self.write_obj(kind, v, align))
        return tpos

    def finish(self, root, ident, reserve=0):
        """Root offset + 4-byte identifier + `reserve` zero bytes, then the
        root table and everything it refers to. Returns the bytes."""
        self.buf = bytearray(8 + reserve)
        self.buf[4:8] = ident
        pos = self._table(root)
        self._put("<I", pos, 0)
        self._align(8)
        return bytes(self.buf)
