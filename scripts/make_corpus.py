#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes tests/corpus: malformed models, JSON configs and vela.ini files that npusim must
refuse with exit code 2 and one error line naming the file (tests/system/corpus_test.cpp runs
them all), and tests/corpus/manifest.json saying which subcommands each file is for.

    python3 scripts/make_corpus.py [--base MODEL] [--out DIR]

The model mutants derive from one valid Vela-style model, the built-in demo network for
ethos-u55-128: tests/corpus/valid/demo_128.tflite, which the script replaces with --base when
given (scripts/fuzz.sh writes the demo network to
build-fuzz/fuzz/seeds.tflite_loader/tflite_loader/demo_128.tflite). The Ethos-U85 mutants derive
from tests/corpus/valid/u85_256.tflite, which the script writes from the same model: its stream
translated into the U85's registers for an ethos-u85-256 (valid_u85), its last convolution's
weights in the fast weight format. Every mutation is fixed (the one random file uses a fixed
seed), so the script always writes the same bytes; the corpus test also checks that the base
models themselves are accepted. Standard library only.
"""

import argparse
import json
import random
import shutil
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Wire keys of the U55/U65 command set (sim/arch/command_set.cpp).
OP_STOP, OP_CONV, OP_DMA_START = 0x000, 0x002, 0x010
IFM_PAD_TOP, IFM_DEPTH_M1 = 0x100, 0x104
OFM_WIDTH_M1, OFM_HEIGHT_M1, OFM_DEPTH_M1 = 0x111, 0x112, 0x113
OFM_BLK_WIDTH_M1, OFM_BLK_HEIGHT_M1, OFM_BLK_DEPTH_M1 = 0x115, 0x116, 0x117
KERNEL_WIDTH_M1, KERNEL_HEIGHT_M1 = 0x120, 0x121
IFM_STRIDE_X, IFM_STRIDE_Y, IFM_STRIDE_C = 0x4004, 0x4005, 0x4006
OFM_STRIDE_X, OFM_STRIDE_Y, OFM_STRIDE_C = 0x4014, 0x4015, 0x4016
DMA0_LEN = 0x4032


def u32(data, pos):
    return struct.unpack_from("<I", data, pos)[0]


def put32(data, pos, value):
    struct.pack_into("<I", data, pos, value & 0xFFFFFFFF)


class FlatBuffer:
    """Just enough of a flatbuffer reader to find fields of the TFLite subset schema
    (sim/io/tflite_subset.fbs) by field id."""

    def __init__(self, data):
        self.data = data

    def root(self):
        return u32(self.data, 0)

    def field(self, table, field_id):
        """Absolute position of a field's value, or None when absent."""
        vtable = table - struct.unpack_from("<i", self.data, table)[0]
        vtable_size = struct.unpack_from("<H", self.data, vtable)[0]
        slot = 4 + 2 * field_id
        if slot >= vtable_size:
            return None
        offset = struct.unpack_from("<H", self.data, vtable + slot)[0]
        return table + offset if offset else None

    def ref(self, pos):
        return pos + u32(self.data, pos)

    def vector(self, table, field_id):
        """(element count, position of element 0) of a vector field."""
        start = self.ref(self.field(table, field_id))
        return u32(self.data, start), start + 4

    def table_at(self, table, field_id, index):
        _, first = self.vector(table, field_id)
        return self.ref(first + 4 * index)


class Model:
    """The base model and where its parts are."""

    def __init__(self, data):
        self.data = bytes(data)
        fb = FlatBuffer(self.data)
        model = fb.root()
        self.subgraph = fb.table_at(model, 2, 0)
        self.operator = fb.table_at(self.subgraph, 3, 0)
        self.op_inputs = fb.vector(self.operator, 1)[1]
        self.op_outputs = fb.vector(self.operator, 2)[1]
        self.custom_code = fb.ref(fb.field(fb.table_at(model, 1, 0), 1)) + 4
        tensor = lambda i: fb.table_at(self.subgraph, 0, i)
        self.input_shape = fb.vector(tensor(4), 0)  # input tensor: [1, 32, 32, 3]
        self.scratch_shape = fb.vector(tensor(2), 0)
        # The flash tensor's data (region 0: scales and encoded weights).
        self.flash = fb.vector(fb.table_at(model, 4, u32(self.data, fb.field(tensor(1), 2))), 0)[1]
        # The zero_point field of the output tensor's quantization, and the int32 shape vectors
        # whose length word is 8-byte aligned (their elements are then not).
        self.zero_point_field = fb.field(fb.ref(fb.field(tensor(5), 4)), 3)
        count = fb.vector(self.subgraph, 0)[0]
        self.shape_vectors = [fb.ref(fb.field(tensor(i), 0)) for i in range(count)]
        # OfflineMemoryAllocation metadata: [version, subgraph, tensor count, offsets...].
        count, first = fb.vector(model, 6)
        self.arena_offsets = None
        for i in range(count):
            md = fb.ref(first + 4 * i)
            name_pos = fb.ref(fb.field(md, 0))
            name = self.data[name_pos + 4:name_pos + 4 + u32(self.data, name_pos)]
            if name == b"OfflineMemoryAllocation":
                buffer = fb.table_at(model, 4, u32(self.data, fb.field(md, 1)))
                self.arena_offsets = fb.vector(buffer, 0)[1] + 12
        # The COP1 driver payload and the command words after its 32-byte header.
        self.cop1 = self.data.index(b"COP1")
        self.stream = self.cop1 + 32
        words = u32(self.data, self.cop1 + 28)
        self.stream_bytes = 4 * ((words >> 16) | ((words >> 8) & 0xFF) << 16)
        self.commands = []  # (byte position in the file, key, param)
        pos = self.stream
        while pos < self.stream + self.stream_bytes:
            word = u32(self.data, pos)
            self.commands.append((pos, word & 0xFFFF, word >> 16))
            pos += 8 if word & 0x4000 else 4

    def find(self, key, nth=0):
        """File position of the nth command with `key`."""
        return [pos for pos, k, _ in self.commands if k == key][nth]


def mutated(model, edits):
    """Copy of the model with (position, 32-bit word) edits applied."""
    data = bytearray(model.data)
    for pos, value in edits:
        put32(data, pos, value)
    return bytes(data)


def first_op_only(model, data):
    """`data` (the model with edits) with its command stream cut after the first NPU_OP_CONV:
    a STOP follows it, the COMMAND_STREAM action is shortened and the rest of the driver
    payload becomes NOP actions, so that only the edits' effect on that one convolution counts."""
    data = bytearray(data)
    stop = model.find(OP_CONV) + 4
    put32(data, stop, cmd0(OP_STOP, 0xFFFF))
    words = (stop + 4 - model.stream) // 4
    put32(data, model.cop1 + 28, (words & 0xFFFF) << 16 | (words >> 16 & 0xFF) << 8 | 0x02)
    for pos in range(stop + 4, model.stream + model.stream_bytes, 4):
        put32(data, pos, 0x00000005)
    return bytes(data)


def weight_stream(count, width, values, dirofs=0, zdiv=6, wdiv=7, newpal=1, tail=None, size=None):
    """A compressed weight stream (sim/cmdstream/weight_codec.h has the format): one slice of
    `count` uncompressed `width`-bit direct codes `values(i)` without palette or zero runs,
    the end marker, and 0xff padding to `size` bytes (or `tail` bytes after the marker)."""
    bits = []

    def put(n, v):
        bits.extend((v >> i) & 1 for i in range(n))

    put(3, zdiv)
    put(15, count - 1)
    put(3, wdiv)
    put(1, 0)
    put(1, newpal)
    put(5, dirofs)
    put(5, 0)
    put(3, width - 2)
    for i in range(count):
        put(width, values(i))
    put(3, 7)
    bits.extend([1] * (-len(bits) % 8))
    data = bytes(sum(bit << j for j, bit in enumerate(bits[k:k + 8])) for k in range(0, len(bits), 8))
    if tail is not None:
        return data + tail
    return data + b"\xff" * (size - len(data))


def weight_streams(model):
    """(flash offset, length) of every convolution's weight stream, in stream order: its own
    address when it reads region 0, else the source of the DMA that filled its buffer."""
    regs, dmas, streams = {}, [], []
    for pos, key, param in model.commands:
        regs[key] = u32(model.data, pos + 4) if key & 0x4000 else param
        if key == OP_DMA_START:
            dmas.append((regs[0x4030], regs[0x4031], regs[DMA0_LEN]))
        elif key in (OP_CONV, 0x003):
            base, length = regs[0x4020], regs[0x4021]
            if regs[0x128] != 0:
                src, dst, _ = next(d for d in reversed(dmas) if d[1] <= base < d[1] + d[2])
                base = src + base - dst
            if (base, length) not in streams:
                streams.append((base, length))
    return streams


def with_weights(model, streams):
    """The model with the weight streams at (flash offset, length) replaced by `streams`."""
    data = bytearray(model.data)
    for (base, length), stream in zip(weight_streams(model), streams):
        assert len(stream) == length, (len(stream), length)
        data[model.flash + base:model.flash + base + length] = stream
    return bytes(data)


def valid_stream(length):
    """A valid uncompressed stream of exactly `length` bytes: 36 header bits + 8 per weight +
    3 end bits fill length - 5 bytes, the end byte and 0xff padding the rest."""
    return weight_stream(length - 5, 8, lambda i: i % 200, size=length)


def weight_models(m):
    """(name, bytes, why): the base model with valid weight streams, then mutants of its first
    stream, each of the stream's original length."""
    streams = [valid_stream(length) for _, length in weight_streams(m)]
    length = len(streams[0])
    count = length - 5
    out = [("encoded_weights.tflite", with_weights(m, streams),
            "every weight stream replaced by a valid uncompressed stream")]

    def add(name, stream, why):
        out.append((name, with_weights(m, [stream] + streams[1:]), why))

    add("weights_truncated.tflite", streams[0][:length // 2] + bytes(length - length // 2),
        "weight stream whose slice runs past the stream's end")
    add("weights_zero_run_divisor_4.tflite", weight_stream(count, 8, lambda i: 1, zdiv=4, size=length),
        "weight stream slice with zero-run divisor 4")
    add("weights_weight_divisor_6.tflite", weight_stream(count, 8, lambda i: 1, wdiv=6, size=length),
        "weight stream slice with weight divisor 6")
    add("weights_no_palette_header.tflite", weight_stream(count, 8, lambda i: 1, newpal=0, size=length),
        "first weight stream slice without a palette header")
    nine = (length - 5) * 8 // 9 - 1
    add("weights_value_beyond_9_bits.tflite", weight_stream(nine, 9, lambda i: 511, dirofs=31, size=length),
        "weight index 511 + direct offset 31: a 10-bit value code")
    short = weight_stream(16, 8, lambda i: 2, size=32)
    add("weights_trailing_garbage.tflite", short + bytes(1 + i % 254 for i in range(length - len(short))),
        "bytes other than padding after the weight stream's end")
    add("weights_zero_padding.tflite", weight_stream(count - 16, 8, lambda i: 2, tail=bytes(16)),
        "weight stream end padded with 0x00 instead of 0xff")
    return out


def flip(model, pos, bit):
    data = bytearray(model.data)
    data[pos] ^= 1 << bit
    return bytes(data)


def cmd0(key, param):
    return (param & 0xFFFF) << 16 | key


# ------------------------------------------------------------------------------------------
# Ethos-U85 (ethos-u85.md 2.2, 3.2-3.5, 4.3): the base model's stream in the U85's registers.

U85_CONFIG = 0x20000118   # ethos-u85-256: 256 MACs, stream version 1, 2 SRAM + 1 EXT ports, 1 decoder
U85_ID = 0x20007000       # architecture 2.0.0
U55_ONLY = {0x010D, 0x012D, 0x018D, 0x0123, 0x0181}   # IB_END, AB_START, IFM2_IB_START, PARALLEL_MODE, IFM2_SCALAR
IFM_PRECISION, OFM_PRECISION, IFM2_PRECISION = 0x105, 0x114, 0x185
ACC_FORMAT, ACTIVATION, WEIGHT_FORMAT = 0x124, 0x125, 0x12E
OP_DEPTHWISE, OFM_SCALE = 0x003, 0x4024
OP_BRANCH = 0x4100


def fwd_stream(length, values, raw=False, small=False, reserved_bit=None):
    """A fast-weight-decoder stream of `length` bytes: the 256-bit header (raw and small-palette
    flags, zero adjust 0, the palette of `values`' distinct weights) and 4-bit palette indices."""
    palette = list(dict.fromkeys(values))[:16]
    bits = [0] * (8 * length)

    def put(pos, n, v):
        for i in range(n):
            bits[pos + i] = (v >> i) & 1

    put(0, 1, int(raw))
    put(1, 1, int(small))
    for i, v in enumerate(palette):
        put(112 + 9 * i, 9, abs(v) << 1 | (v < 0))
    for i, v in enumerate(values):
        put(256 + 4 * i, 4, palette.index(v))
    if reserved_bit is not None:
        put(reserved_bit, 1, 1)
    return bytes(sum(bits[k + j] << j for j in range(8)) for k in range(0, len(bits), 8))


def valid_u85(m):
    """(bytes, command words) of the U85 base model: the base model's header for ethos-u85-256,
    its commands with the U85's meanings (U55-only registers dropped; precision, accumulator,
    activation and scale fields in the U85's layout; standard weights but for the last
    convolution, after NPU_SET_WEIGHT_FORMAT 1, fast ones), and that convolution's weight stream
    replaced by a fast-format stream of the same length, the others by valid standard streams (as
    in encoded_weights.tflite). The shorter stream is followed by NOP driver actions."""
    words = []
    convs = [pos for pos, key, _ in m.commands if key == OP_CONV]
    for pos, key, param in m.commands:
        if key in U55_ONLY:
            continue
        if key in (IFM_PRECISION, IFM2_PRECISION):
            param &= 0x00CD   # signed, precision, format; storage TILE2X2
        elif key == OFM_PRECISION:
            param &= 0x01C7   # signed, precision, format, global scale
        elif key == ACC_FORMAT:
            param = 0x0100    # 32-bit accumulators, micro-block 1x2 (ethos-u85-256's 1x2x16)
        elif key == ACTIVATION:
            assert param & 0x1F == 0, "the base model uses a LUT"
            param = 0
        elif pos == convs[-1]:
            words.append(cmd0(WEIGHT_FORMAT, 1))   # the register resets to 0, standard weights
        words.append((param & 0xFFFF) << 16 | key)
        if key & 0x4000:
            payload = u32(m.data, pos + 4)
            words.append(payload & 0x7FFFFFFF if key == OFM_SCALE else payload)
    assert 4 * len(words) <= m.stream_bytes
    data = bytearray(m.data)
    put32(data, m.cop1 + 8, U85_CONFIG)
    put32(data, m.cop1 + 12, U85_ID)
    put32(data, m.cop1 + 28, (len(words) & 0xFFFF) << 16 | (len(words) >> 16 & 0xFF) << 8 | 0x02)
    for i, w in enumerate(words):
        put32(data, m.stream + 4 * i, w)
    for pos in range(m.stream + 4 * len(words), m.stream + m.stream_bytes, 4):
        put32(data, pos, 0x00000005)
    # Weight streams: valid standard streams (as encoded_weights.tflite), the last a fast one.
    streams = weight_streams(m)
    for base, length in streams[:-1]:
        data[m.flash + base:m.flash + base + length] = valid_stream(length)
    base, length = streams[-1]
    assert length % 32 == 0
    data[m.flash + base:m.flash + base + length] = fwd_stream(length, [i % 13 - 6 for i in range(2 * (length - 32))])
    return bytes(data), words


def u85_mutants(m):
    """(name, bytes, commands, why) for each Ethos-U85 mutant of the U85 base model; commands:
    the subcommands that must refuse it."""
    data, words = valid_u85(m)
    stream = m.stream
    keys = []   # (word index, key) of each command
    i = 0
    while i < len(words):
        keys.append((i, words[i] & 0xFFFF))
        i += 2 if words[i] & 0x4000 else 1
    find = lambda key, nth=0: [w for w, k in keys if k == key][nth]
    out = []

    def add(name, edits, why, commands=("inspect",)):
        d = bytearray(data)
        for word, value in edits:
            put32(d, stream + 4 * word, value)
        out.append((name, bytes(d), list(commands), why))

    def at(word):
        return u32(data, stream + 4 * word)

    stride = find(IFM_STRIDE_X)   # a cmd1: its two words can hold any cmd1 command
    add("u85_u55_opcode.tflite", [(find(ACC_FORMAT), cmd0(0x010D, 0))],
        "NPU_SET_IFM_IB_END (a U55 register the U85 lacks) in a U85 stream")
    add("u85_branch_outside.tflite", [(stride, OP_BRANCH), (stride + 1, 0x00100000)],
        "NPU_OP_BRANCH to byte 0x100000, outside the stream")
    add("u85_branch_into_command.tflite", [(stride, OP_BRANCH), (stride + 1, 4 * stride + 4)],
        "NPU_OP_BRANCH to its own payload word: not a command boundary")
    add("u85_chain_unwritten.tflite", [(find(IFM_PRECISION), (at(find(IFM_PRECISION)) | 0x8000 << 16))],
        "the first convolution's IFM in the chaining buffer its IFM_REGION names, which no earlier operation wrote")
    add("u85_weight_format_reserved.tflite", [(find(WEIGHT_FORMAT), cmd0(WEIGHT_FORMAT, 0x0003))],
        "NPU_SET_WEIGHT_FORMAT with reserved bit 1 set")
    add("u85_ofm_transpose_reserved.tflite", [(find(OFM_PRECISION), at(find(OFM_PRECISION)) | 4 << 27)],
        "OFM transpose 4 (reserved)")
    add("u85_microblock_4x4.tflite", [(find(ACC_FORMAT), cmd0(ACC_FORMAT, 0x0500))],
        "micro-block 4x4, which ethos-u85-256 does not have")
    add("u85_activation_reserved.tflite", [(find(ACTIVATION), cmd0(ACTIVATION, 3))],
        "activation function 3 (reserved)")

    def header(edits, why, name):
        d = bytearray(data)
        for pos, value in edits:
            put32(d, m.cop1 + pos, value)
        out.append((name, bytes(d), ["inspect"], why))

    header([(8, U85_CONFIG & ~0x300 | 0x200)], "CONFIG word: 4 SRAM ports on an ethos-u85-256",
           "u85_config_sram_ports.tflite")
    header([(8, U85_CONFIG | 0x1000)], "CONFIG word: 2 weight decoders on an ethos-u85-256",
           "u85_config_weight_decoders.tflite")
    header([(12, 0x10060000)], "ID word of architecture 1.0.6 beside an Ethos-U85 CONFIG word",
           "u85_config_id_disagree.tflite")

    # The fast weight stream (the last convolution's): only `inspect --weights` decodes it.
    base, length = weight_streams(m)[-1]
    values = [i % 13 - 6 for i in range(2 * (length - 32))]

    def weights(name, stream, why):
        d = bytearray(data)
        d[m.flash + base:m.flash + base + length] = stream
        out.append((name, bytes(d), ["inspect-weights"], why))

    weights("u85_fwd_reserved_header_bit.tflite", fwd_stream(length, values, reserved_bit=60),
            "fast weight stream header with reserved bit 60 set")
    weights("u85_fwd_raw_and_small.tflite", fwd_stream(length, values, raw=True, small=True),
            "fast weight stream header with both the raw and the small-palette flag")
    # The standard stream of the first convolution, cut in half.
    first, first_length = weight_streams(m)[0]
    d = bytearray(data)
    d[m.flash + first + first_length // 2:m.flash + first + first_length] = bytes(first_length - first_length // 2)
    out.append(("u85_swd_truncated.tflite", bytes(d), ["inspect-weights"],
                "the first convolution's standard weight stream cut in half: its slice runs past the stream's end"))
    return data, out


def model_mutants(m):
    """(name, bytes, why) for each model mutant."""
    d = m.data
    size = len(d)
    rng = random.Random(20240601)
    out = []

    def add(name, data, why):
        out.append((name, data, why))

    # 1. Truncations.
    add("empty.tflite", b"", "empty file")
    for n in (4, 7, 16):
        add(f"truncated_{n}_bytes.tflite", d[:n], f"only the first {n} bytes")
    for percent in (10, 25, 50, 75, 90, 99):
        add(f"truncated_{percent}pct.tflite", d[:size * percent // 100], f"cut after {percent}% of the file")
    add("truncated_in_stream.tflite", d[:m.stream + 12], "cut inside the command stream")

    # 2. Wrong headers and foreign files.
    add("identifier_tfl2.tflite", d[:4] + b"TFL2" + d[8:], "file identifier TFL2 instead of TFL3")
    add("root_offset_past_end.tflite", mutated(m, [(0, size + 64)]), "root table offset past the end")
    add("root_offset_zero.tflite", mutated(m, [(0, 0)]), "root table offset 0")
    add("random_bytes.tflite", bytes(rng.randrange(256) for _ in range(size)), "random bytes, same length")
    add("text_file.tflite", b"this is not a model\n", "a text file")
    add("json_as_model.tflite", b'{"accelerator": "ethos-u55-128"}\n', "a JSON config given as the model")
    add("zero_bytes.tflite", bytes(size), "all zero bytes")

    # 3. Swapped sections.
    half = size // 2 // 16 * 16
    add("swapped_halves.tflite", d[half:] + d[:half], "second half of the file first")
    add("swapped_header_words.tflite", d[4:8] + d[0:4] + d[8:], "root offset and identifier swapped")
    cop1 = m.cop1
    add("swapped_cop1_header_and_stream.tflite",
        d[:cop1] + d[cop1 + 32:cop1 + 64] + d[cop1:cop1 + 32] + d[cop1 + 64:],
        "COP1 header and the first command words swapped")
    first, last = m.commands[0][0], m.commands[-1][0]
    add("swapped_first_and_stop_command.tflite",
        mutated(m, [(first, u32(d, last)), (last, u32(d, first))]),
        "NPU_OP_STOP moved to the start of the stream")

    # 4. COP1 driver header: tag, CONFIG word, ID word, actions.
    add("cop1_tag_cop2.tflite", d[:cop1] + b"COP2" + d[cop1 + 4:], "COP1 tag reads COP2")
    config = u32(d, cop1 + 8)
    add("config_product_u65.tflite", mutated(m, [(cop1 + 8, config | 1 << 28)]), "CONFIG word names product 1 (U65)")
    add("config_512_macs.tflite", mutated(m, [(cop1 + 8, config & ~0xF | 9)]), "CONFIG word: 512 MACs")
    add("config_shram_mismatch.tflite", mutated(m, [(cop1 + 8, config & ~0xFF00 | 48 << 8)]),
        "CONFIG word: 48 KB SHRAM on a 128-MAC U55")
    add("config_custom_dma.tflite", mutated(m, [(cop1 + 8, config | 1 << 27)]), "CONFIG word asks for custom DMA")
    add("config_stream_version_1.tflite", mutated(m, [(cop1 + 8, config | 1 << 4)]), "command-stream version 1")
    add("arch_version_2.tflite", mutated(m, [(cop1 + 12, 0x20000000)]), "ID word: architecture 2.0.0")
    action = u32(d, cop1 + 28)
    add("stream_length_too_long.tflite", mutated(m, [(cop1 + 28, action | 0xFF << 8)]),
        "COMMAND_STREAM length past the tensor")
    add("driver_action_read_apb.tflite", mutated(m, [(cop1 + 16, 0x00000003)]), "READ_APB driver action")
    add("driver_action_unknown.tflite", mutated(m, [(cop1 + 16, 0x0000007F)]), "unknown driver action 0x7f")
    add("no_optimizer_config.tflite", mutated(m, [(cop1 + 4, 0x00000005), (cop1 + 8, 0x00000005),
                                                  (cop1 + 12, 0x00000005)]),
        "OPTIMIZER_CONFIG action replaced by NOPs")

    # 5. Command stream: opcodes, control bits, STOP.
    add("unknown_cmd0_opcode.tflite", mutated(m, [(first, cmd0(0x3FF, 0))]), "cmd0 opcode 0x3ff")
    add("unknown_cmd1_opcode.tflite", mutated(m, [(m.find(IFM_STRIDE_X), 0x40FF)]), "cmd1 opcode 0x0ff")
    add("reserved_control_bits.tflite", mutated(m, [(first, u32(d, first) | 0x8000)]), "control bits 0b10")
    add("no_stop.tflite", mutated(m, [(last, cmd0(IFM_PAD_TOP, 0))]), "NPU_OP_STOP replaced by a register write")
    add("truncated_cmd1_at_end.tflite", mutated(m, [(last, 0x4000 | IFM_STRIDE_X & 0x3FF)]),
        "the last word starts a cmd1 without payload")
    add("pool_mode_7.tflite", mutated(m, [(m.find(0x005), cmd0(0x005, 7))]), "pooling mode 7")

    # 6. Huge dimensions: rejected by the region checks, or (with zero strides keeping the
    #    footprint small) by the work budget before simulation.
    conv = m.find(OP_CONV)
    add("huge_ofm_region_check.tflite",
        mutated(m, [(m.find(OFM_HEIGHT_M1), cmd0(OFM_HEIGHT_M1, 0xFFFF)),
                    (m.find(OFM_WIDTH_M1), cmd0(OFM_WIDTH_M1, 0xFFFF))]),
        "OFM 65536x65536: outside its region")
    zero_strides = [(m.find(k) + 4, 0) for k in (IFM_STRIDE_X, IFM_STRIDE_Y, IFM_STRIDE_C, OFM_STRIDE_X,
                                                 OFM_STRIDE_Y, OFM_STRIDE_C)]
    tiny_blocks = [(m.find(k), cmd0(k, 0)) for k in (OFM_BLK_WIDTH_M1, OFM_BLK_HEIGHT_M1, OFM_BLK_DEPTH_M1)]
    huge_ofm = [(m.find(OFM_HEIGHT_M1), cmd0(OFM_HEIGHT_M1, 0xFFFF)),
                (m.find(OFM_WIDTH_M1), cmd0(OFM_WIDTH_M1, 0xFFFF)),
                (m.find(OFM_DEPTH_M1), cmd0(OFM_DEPTH_M1, 0xFFFF))]
    add("huge_ofm_blocks.tflite", first_op_only(m, mutated(m, huge_ofm + zero_strides + tiny_blocks)),
        "one convolution with a 65536^3 OFM in 1x1x1 blocks and zero strides: 2.8e14 blocks")
    add("huge_traffic.tflite",
        first_op_only(m, mutated(m, zero_strides + [(m.find(IFM_DEPTH_M1), cmd0(IFM_DEPTH_M1, 16383)),
                                                    (m.find(OFM_DEPTH_M1), cmd0(OFM_DEPTH_M1, 16383)),
                                                    (m.find(OFM_BLK_DEPTH_M1), cmd0(OFM_BLK_DEPTH_M1, 0))])),
        "one convolution over 16384 IFM channels for each of 16384 one-channel OFM blocks: 5e9 AXI bursts")
    add("huge_kernel.tflite",
        mutated(m, zero_strides + [(m.find(KERNEL_WIDTH_M1), cmd0(KERNEL_WIDTH_M1, 0xFFFF)),
                                   (m.find(KERNEL_HEIGHT_M1), cmd0(KERNEL_HEIGHT_M1, 0xFFFF))]),
        "65536x65536 kernel with zero strides")
    add("huge_dma.tflite", mutated(m, [(m.find(DMA0_LEN) + 4, 0xFFFFFFF0)]), "DMA of 4 GiB")
    add("huge_tensor_shape.tflite",
        mutated(m, [(m.input_shape[1] + 4 * i, 65536) for i in (1, 2, 3)]),
        "input tensor shape [1, 65536, 65536, 65536]")
    add("negative_scratch_size.tflite", mutated(m, [(m.scratch_shape[1], 0x80000000)]),
        "scratch tensor of shape [-2^31]: every arena access is out of region")
    add("arena_offset_past_sram.tflite", mutated(m, [(m.arena_offsets + 4 * 2, 0x7FFFFFF0)]),
        "scratch tensor placed 2 GiB into the arena: past the SRAM window")

    # 7. Flatbuffer structure.
    add("tensor_index_out_of_range.tflite", mutated(m, [(m.op_inputs + 4, 99)]), "operator input tensor 99")
    add("output_tensor_negative.tflite", mutated(m, [(m.op_outputs, 0xFFFFFFFF)]), "operator output tensor -1")
    add("custom_code_not_ethos_u.tflite", d[:m.custom_code] + b"ethos-x" + d[m.custom_code + 7:],
        "custom operator ethos-x: no ethos-u operator")

    # 8. An int64 vector that is 4- but not 8-byte aligned: the output tensor's zero points
    #    pointed at a shape vector's length word (found by fuzz_tflite_loader as UB).
    vec = next(v for v in m.shape_vectors if v % 8 == 0)
    add("misaligned_zero_points.tflite", mutated(m, [(m.zero_point_field, vec - m.zero_point_field)]),
        "zero points (int64) starting at a 4-byte but not 8-byte aligned offset")

    # 9. Single bit flips at checked fields.
    add("bitflip_identifier.tflite", flip(m, 5, 1), "bit 1 of the second identifier byte")
    add("bitflip_root_offset.tflite", flip(m, 3, 6), "bit 30 of the root table offset")
    add("bitflip_cop1_tag.tflite", flip(m, cop1, 0), "bit 0 of the COP1 tag")
    add("bitflip_config_word.tflite", flip(m, cop1 + 11, 4), "bit 28 of the CONFIG word")
    add("bitflip_stop_opcode.tflite", flip(m, last, 3), "bit 3 of NPU_OP_STOP's opcode")
    add("bitflip_control_bit.tflite", flip(m, first + 1, 7), "bit 15 of the first command word")
    add("bitflip_conv_opcode.tflite", flip(m, conv + 1, 4), "bit 12 of NPU_OP_CONV's opcode")
    return out


def json_mutants():
    """(name, text, why) for each JSON config mutant (used as run --config FILE)."""
    deep = '{"system": ' + "[" * 200 + "]" * 200 + "}"
    return [
        ("empty.json", "", "empty file"),
        ("truncated.json", '{"system": {"sram": {"read_latency": 3', "cut in the middle"),
        ("not_an_object.json", "[1, 2, 3]\n", "top level is an array"),
        ("trailing_garbage.json", '{"accelerator": "ethos-u55-128"} x\n', "text after the object"),
        ("nan_literal.json", '{"system": {"core_clock": NaN}}\n', "NaN is not JSON"),
        ("unknown_key.json", '{"system": {"sram": {"read_latncy": 3}}}\n', "misspelt key"),
        ("unknown_top_level.json", '{"sytem": {}}\n', "misspelt group"),
        ("dotted_key.json", '{"system.core_clock": 1e9}\n', "dotted member name"),
        ("group_not_object.json", '{"system": 5}\n', "group given a number"),
        ("wrong_type.json", '{"system": {"sram": {"read_latency": "fast"}}}\n', "string for an integer"),
        ("not_integer.json", '{"npu": {"axi0": {"max_outstanding_reads": 2.5}}}\n', "fraction for an integer"),
        ("negative_latency.json", '{"system": {"dram": {"read_latency": -1}}}\n', "negative latency"),
        ("clock_too_high.json", '{"system": {"core_clock": 1e15}}\n', "1 PHz clock"),
        ("bad_enum.json", '{"system": {"axi0_port": "Flash"}}\n', "unknown memory kind"),
        ("bad_accelerator.json", '{"accelerator": "ethos-u65-256"}\n', "unknown accelerator"),
        ("arena_in_flash.json", '{"memory_mode": {"arena_mem_area": "Axi1"}}\n', "tensor arena on off-chip flash"),
        ("deep_nesting.json", deep, "arrays nested 200 deep"),
        ("newline_in_key.json", '{"sys\\ntem": 1}\n', "a newline inside a key name"),
        ("burst_not_pow2.json", '{"system": {"sram": {"burst_length": 48}}}\n', "burst length 48"),
        ("invalid_utf8.json", '{"accelerator": "\xff\xfe"}\n', "bytes that are not UTF-8"),
    ]


def ini_mutants():
    """(name, text, system_config, memory_mode, why) for each vela.ini mutant."""
    system = ("[System_Config.S]\ncore_clock=500e6\naxi0_port=Sram\naxi1_port=OffChipFlash\n"
              "Sram_clock_scale=1.0\nSram_burst_length=32\nSram_read_latency=32\nSram_write_latency=32\n"
              "OffChipFlash_clock_scale=0.125\nOffChipFlash_burst_length=128\n"
              "OffChipFlash_read_latency=64\nOffChipFlash_write_latency=64\n")
    mode = "[Memory_Mode.M]\nconst_mem_area=Axi1\narena_mem_area=Axi0\ncache_mem_area=Axi0\n"
    chain = "".join(f"[System_Config.C{i}]\ninherit=System_Config.C{i + 1}\n" for i in range(70))
    chain += "[System_Config.C70]\ncore_clock=500e6\n"
    return [
        ("empty.ini", "", "S", "M", "no sections"),
        ("key_before_section.ini", "core_clock=1\n" + system + mode, "S", "M", "key before any section"),
        ("no_equals.ini", system + "just words\n" + mode, "S", "M", "line without = or :"),
        ("duplicate_section.ini", system + system + mode, "S", "M", "section defined twice"),
        ("duplicate_key.ini", system + "CORE_CLOCK=1e9\n" + mode, "S", "M", "key set twice (case-insensitive)"),
        ("unknown_key.ini", system + "sram_latency=3\n" + mode, "S", "M", "misspelt key"),
        ("bad_number.ini", system.replace("core_clock=500e6", "core_clock=fast") + mode, "S", "M", "not a number"),
        ("clock_too_high.ini", system.replace("500e6", "1e15") + mode, "S", "M", "1 PHz clock"),
        ("bad_port.ini", system.replace("axi0_port=Sram", "axi0_port=Flash") + mode, "S", "M", "unknown memory"),
        ("missing_section.ini", system + mode, "Missing", "M", "--system-config names no section"),
        ("inherit_self.ini", system + "inherit=System_Config.S\n" + mode, "S", "M", "section inherits itself"),
        ("inherit_cycle.ini", system + "inherit=System_Config.T\n[System_Config.T]\ninherit=System_Config.S\n" + mode,
         "S", "M", "S -> T -> S"),
        ("inherit_missing.ini", system + "inherit=System_Config.Nowhere\n" + mode, "S", "M", "parent not found"),
        ("inherit_too_deep.ini", chain + mode, "C0", "M", "inheritance chain of 71 sections"),
        ("unknown_default_key.ini", "[DEFAULT]\nfrobnicate=1\n" + system + mode, "S", "M", "unknown [DEFAULT] key"),
        ("continuation_value.ini", system.replace("core_clock=500e6", "core_clock=500e6\n  1e9") + mode, "S", "M",
         "indented continuation line makes a two-line value"),
        ("arena_in_flash.ini", system + mode.replace("arena_mem_area=Axi0", "arena_mem_area=Axi1"), "S", "M",
         "tensor arena on off-chip flash"),
        ("latency_negative.ini", system.replace("Sram_read_latency=32", "Sram_read_latency=-5") + mode, "S", "M",
         "negative latency"),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, help="valid model to mutate (copied to OUT/valid/demo_128.tflite)")
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "corpus")
    args = parser.parse_args()
    valid = args.out / "valid" / "demo_128.tflite"
    if args.base is not None and args.base.resolve() != valid.resolve():
        valid.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(args.base, valid)
    if not valid.is_file():
        parser.error(f"{valid} is missing: pass --base (scripts/fuzz.sh writes "
                     "build-fuzz/fuzz/seeds.tflite_loader/tflite_loader/demo_128.tflite)")
    model = Model(valid.read_bytes())

    for sub in ("tflite", "json", "vela_ini"):
        shutil.rmtree(args.out / sub, ignore_errors=True)
        (args.out / sub).mkdir(parents=True)
    model_commands = ["inspect", "run", "estimate"]
    config_commands = ["run", "estimate"]
    entries = [{"path": "valid/demo_128.tflite", "kind": "model", "expect": 0,
                "commands": model_commands, "why": "the unmutated base model"}]
    for name, data, why in model_mutants(model):
        (args.out / "tflite" / name).write_bytes(data)
        entries.append({"path": f"tflite/{name}", "kind": "model", "expect": 2, "commands": model_commands,
                        "why": why})
    for name, text, why in json_mutants():
        (args.out / "json" / name).write_bytes(text.encode("latin-1"))
        entries.append({"path": f"json/{name}", "kind": "json", "expect": 2, "commands": config_commands, "why": why})
    for name, text, system, mode, why in ini_mutants():
        (args.out / "vela_ini" / name).write_text(text)
        entries.append({"path": f"vela_ini/{name}", "kind": "vela_ini", "expect": 2, "commands": config_commands,
                        "system_config": system, "memory_mode": mode, "why": why})
    # Weight streams: only `inspect --weights` decodes them.
    weight_commands = ["inspect-weights"]
    for name, data, why in weight_models(model):
        (args.out / "tflite" / name).write_bytes(data)
        valid_weights = name == "encoded_weights.tflite"
        entries.append({"path": f"tflite/{name}", "kind": "model", "expect": 0 if valid_weights else 2,
                        "commands": model_commands + weight_commands if valid_weights else weight_commands,
                        "why": why})
    # Ethos-U85: the base model is read (inspect) and run; its mutants are refused by inspect.
    u85_data, mutants = u85_mutants(model)
    (args.out / "valid" / "u85_256.tflite").write_bytes(u85_data)
    entries.append({"path": "valid/u85_256.tflite", "kind": "model", "expect": 0,
                    "commands": ["inspect", "inspect-weights", "run"], "why": "the U85 base model"})
    for name, data, commands, why in mutants:
        (args.out / "tflite" / name).write_bytes(data)
        entries.append({"path": f"tflite/{name}", "kind": "model", "expect": 2, "commands": commands, "why": why})
    manifest = {
        "about": "Written by scripts/make_corpus.py; run by tests/system/corpus_test.cpp. kind model: "
                 "npusim COMMAND FILE (inspect-weights: npusim inspect --format json --weights FILE); json: npusim COMMAND --config FILE; vela_ini: npusim COMMAND --vela-ini "
                 "FILE --system-config X --memory-mode Y. expect: exit code (2: one error line naming the file).",
        "files": entries,
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{sum(e['expect'] == 2 for e in entries)} malformed inputs in {args.out}")


if __name__ == "__main__":
    main()
