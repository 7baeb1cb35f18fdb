#!/usr/bin/env python3
"""Makes the upstream-written test programs of tests/data/ again.

Needs upstream ExecuTorch's Python package (`pip install executorch torch`
in a virtual environment; not needed by the build or the tests, which read
the committed files). Writes into OUT (default: the current directory):

  add.pte                forward(x: float32[1], y: float32[1]) = x + y
  mul_add_bundled.bpte   forward(x: float32[2,3]) = x * 2 + 1, bundled with
                         two test cases and their eager outputs

The committed files were written by earlier exporter versions, so the bytes
differ from a new run (the README gives the versions); the programs are the
same. linear_constant_buffer.pte is upstream's own file (README): no current
exporter writes the deprecated constant_buffer any more.

    python3 tests/data/make_test_data.py --out /tmp/test-data
"""

import argparse
import os

import torch
from executorch.exir import to_edge, to_edge_transform_and_lower


class Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class MulAdd(torch.nn.Module):
    def forward(self, x):
        return x * 2 + 1


def write_add(out):
    inputs = (torch.ones(1), torch.ones(1))
    program = to_edge(torch.export.export(Add(), inputs)).to_executorch()
    with open(os.path.join(out, "add.pte"), "wb") as f:
        f.write(program.buffer)


def write_mul_add_bundled(out):
    from executorch.devtools import BundledProgram
    from executorch.devtools.bundled_program.config import MethodTestCase, MethodTestSuite
    from executorch.devtools.bundled_program.serialize import (
        serialize_from_bundled_program_to_flatbuffer,
    )

    model = MulAdd().eval()
    example = (torch.zeros(2, 3),)
    program = to_edge_transform_and_lower(torch.export.export(model, example)).to_executorch()
    cases = [
        torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        torch.tensor([[-1.5, 0.0, 0.25], [10.0, -3.0, 7.5]]),
    ]
    suite = MethodTestSuite(
        method_name="forward",
        test_cases=[MethodTestCase(inputs=(x,), expected_outputs=(model(x),)) for x in cases],
    )
    bundled = BundledProgram(program, [suite])
    with open(os.path.join(out, "mul_add_bundled.bpte"), "wb") as f:
        f.write(serialize_from_bundled_program_to_flatbuffer(bundled))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".", help="directory to write into")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    write_add(args.out)
    write_mul_add_bundled(args.out)


if __name__ == "__main__":
    main()
