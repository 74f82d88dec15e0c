"""A gzip decompression bomb: shared by Benchmarks/forwarding.py and the tests' StreamingUpstream
(Tests/StubdTestSupport), which both send one through `stubd serve --proxy`."""
import struct, zlib

MB = 1 << 20


def gzip_bomb(mib):
    """mib MiB of zeros gzip-encoded in about mib KB; full flushes make each MiB compress to the same
    bytes, so it is built in a blink whatever the size."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = bytes(MB)
    first = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    piece = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    tail = c.flush()
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(block, crc)
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + first + piece * (mib - 1) + tail
            + struct.pack("<II", crc, (mib * MB) & 0xffffffff))
