"""The model's metadata (ONNX Runtime's ModelMetadata), read from its bytes.

The C library keeps no metadata (the loader builds the graph's IR and drops
the rest), so these few fields are read here from the protobuf wire format:
ModelProto's producer_name (2), domain (4), model_version (5), doc_string (6),
graph (7) and metadata_props (14, StringStringEntryProto: key 1, value 2), and
GraphProto's name (2) and doc_string (10); every other field is skipped by its
length. As protobuf decodes: the last value of a scalar field wins, and a
message field given twice (graph) is merged. The library has already loaded
these bytes, so a malformed field here means they changed since: ValueError.
"""

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


def _varint(buf, pos, end):
    value = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise ValueError("the model's bytes end inside a varint, or it is longer than 10 bytes")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value & 0xFFFFFFFFFFFFFFFF, pos
        shift += 7


def _fields(buf, pos, end):
    """(field number, wire type, value) of each field in buf[pos:end]: a LEN
    field's value is its (start, end), a varint its number, fixed ones None."""
    while pos < end:
        tag, pos = _varint(buf, pos, end)
        number, wire = tag >> 3, tag & 7
        if wire == _VARINT:
            value, pos = _varint(buf, pos, end)
        elif wire == _LEN:
            n, pos = _varint(buf, pos, end)
            value = (pos, pos + n)
            pos += n
        elif wire in (_I64, _I32):
            value = None
            pos += 8 if wire == _I64 else 4
        else:
            raise ValueError(f"field {number} has wire type {wire}, which ONNX's messages do not use")
        if pos > end:
            raise ValueError(f"field {number} runs past the end of its message")
        yield number, wire, value


def _text(buf, span):
    return bytes(buf[span[0]:span[1]]).decode("utf-8", errors="replace")


class ModelMetadata:
    """ONNX Runtime's ModelMetadata: the ModelProto's producer_name, domain,
    doc_string (description), model_version (version, an int), metadata_props
    (custom_metadata_map, a dict), and its graph's name and doc_string
    (graph_name, graph_description). An absent field is "" (0 for version)."""

    def __init__(self, producer_name="", graph_name="", domain="", description="", graph_description="",
                 version=0, custom_metadata_map=None):
        self.producer_name, self.graph_name, self.domain = producer_name, graph_name, domain
        self.description, self.graph_description, self.version = description, graph_description, version
        self.custom_metadata_map = dict(custom_metadata_map or {})

    def __repr__(self):
        return (f"ModelMetadata(producer_name={self.producer_name!r}, graph_name={self.graph_name!r}, "
                f"domain={self.domain!r}, description={self.description!r}, version={self.version!r}, "
                f"custom_metadata_map={self.custom_metadata_map!r})")


def read_metadata(buf):
    """The ModelMetadata of a serialized ModelProto (bytes, or a buffer such as an mmap)."""
    m = ModelMetadata()
    for number, wire, value in _fields(buf, 0, len(buf)):
        if wire == _LEN and number in (2, 4, 6):
            setattr(m, {2: "producer_name", 4: "domain", 6: "description"}[number], _text(buf, value))
        elif wire == _VARINT and number == 5:
            m.version = value - (1 << 64) if value >> 63 else value  # int64: two's complement
        elif wire == _LEN and number == 7:
            for n, w, v in _fields(buf, *value):
                if w == _LEN and n == 2:
                    m.graph_name = _text(buf, v)
                elif w == _LEN and n == 10:
                    m.graph_description = _text(buf, v)
        elif wire == _LEN and number == 14:
            entry = {1: "", 2: ""}
            for n, w, v in _fields(buf, *value):
                if w == _LEN and n in entry:
                    entry[n] = _text(buf, v)
            m.custom_metadata_map[entry[1]] = entry[2]
    return m
