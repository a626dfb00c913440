"""MinIO's Python SDK (minio.crypto) as an implementation of madmin's admin-body encryption other
than the adapter's: reads one JSON request on stdin, answers one JSON line on stdout.

  {"op": "decrypt", "password": ..., "hex": <ciphertext>}  ->  {"hex": <plaintext>} or {"error": ...}
  {"op": "encrypt", "password": ..., "hex": <plaintext>}   ->  {"hex": <ciphertext>}
"""
import io
import json
import sys

from minio import crypto


class _Body(io.BytesIO):
    """What DecryptReader reads from: an HTTP response's read/close/release_conn."""

    def release_conn(self):
        pass


def main():
    req = json.load(sys.stdin)
    data = bytes.fromhex(req["hex"])
    try:
        if req["op"] == "decrypt":
            out = crypto.decrypt(_Body(data), req["password"])
        else:
            out = crypto.encrypt(data, req["password"])
        print(json.dumps({"hex": out.hex()}))
    except Exception as err:  # the refusal is the answer, e.g. an unknown AEAD id or a bad tag
        print(json.dumps({"error": f"{type(err).__name__}: {err}"}))


main()
