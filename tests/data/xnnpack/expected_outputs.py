#!/usr/bin/env python3
"""Prints the outputs the backend tests expect (tests/xnnpack-backend/
backend_test.cpp) for the fixtures of this directory: each .pte run by
upstream's own runtime (the executorch wheel's bindings, upstream's XNNPACK)
on the inputs the test builds, input[i] = ((i * 7) % 11) * 0.25 - 1.25, and
checked against torch eager on the same modules (make_payloads.py builds
them after torch.manual_seed(0), so their weights are the program's).

  PYTHONPATH=/tmp/tvlib /opt/et-venv/bin/python tests/data/xnnpack/expected_outputs.py
"""
import os

import torch
from executorch.runtime import Runtime
from make_payloads import (CNNS, QUANTIZED, STATIC, LinearReluAdd, TinyConv, build,
                           build_quantized, build_static)

HERE = os.path.dirname(os.path.abspath(__file__))


def pattern(*shape):
    n = 1
    for d in shape:
        n *= d
    return torch.tensor([((i * 7) % 11) * 0.25 - 1.25 for i in range(n)]).reshape(shape)


def run(name, inputs):
    program = Runtime.get().load_program(os.path.join(HERE, name + ".pte"))
    out = program.load_method("forward").execute(inputs)
    return out[0]


def show(name, t):
    def literal(v):  # a C++ float literal: 0 -> 0.0f
        s = f"{v:.7g}"
        return s + ("f" if any(c in s for c in ".e") else ".0f")

    vals = ", ".join(literal(v) for v in t.flatten().tolist())
    print(f"{name} {list(t.shape)}: {{{vals}}}")


def main():
    x, y, c = pattern(2, 4), pattern(2, 3), pattern(1, 2, 5, 5)
    torch.manual_seed(0)
    eager = LinearReluAdd().eval()(x, y).detach()
    got = run("linear_relu_add", [x, y])
    print("max |upstream - eager|:", float((got - eager).abs().max()))
    show("linear_relu_add", got)
    torch.manual_seed(0)
    eager = TinyConv().eval()(c).detach()
    got = run("conv", [c])
    print("max |upstream - eager|:", float((got - eager).abs().max()))
    show("conv", got)
    for name, (_, shape) in CNNS.items():
        x = pattern(*shape)
        eager = build(name)(x).detach()
        got = run(name, [x])
        print(f"{name}: max |upstream - eager|:", float((got - eager).abs().max()),
              "max |output|:", float(got.abs().max()))
        show(name, got)
    # Dynamically quantized: torchao's eager model quantizes as XNNPACK does
    # up to rounding, so the two differ by a quantization step or so.
    for name, (_, _, shape) in QUANTIZED.items():
        x = pattern(*shape)
        eager = build_quantized(name)(x).detach()
        got = run(name, [x])
        print(f"{name}: max |upstream - eager|:", float((got - eager).abs().max()),
              "max |output|:", float(got.abs().max()))
        show(name, got)
    # Statically quantized: the converted module runs the same quantize and
    # dequantize steps in fp32, so it differs from XNNPACK's integer
    # arithmetic by a step of the output's scale where roundings differ.
    for name, (_, shape) in STATIC.items():
        x = pattern(*shape)
        eager = build_static(name)(x).detach()
        got = run(name, [x])
        print(f"{name}: max |upstream - eager|:", float((got - eager).abs().max()),
              "max |output|:", float(got.abs().max()))
        show(name, got)


if __name__ == "__main__":
    main()
