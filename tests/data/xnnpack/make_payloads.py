#!/usr/bin/env python3
"""Writes the XNNPACK fixtures of tests/xnnpack-backend (README.md here).

For each tiny model: lower it to upstream's XnnpackBackend with upstream's
exporter, save the whole program (<name>.pte) and the raw `processed` bytes
of its first delegate (<name>.bin), which is the payload our reader parses.

Run with the venv that has the executorch wheel:
  /opt/et-venv/bin/python tests/data/xnnpack/make_payloads.py
"""
import hashlib
import os

import torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower
from torch.export import export

OUT = os.path.dirname(os.path.abspath(__file__))


class LinearReluAdd(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, x, y):
        return torch.relu(self.fc(x)) + y


class TinyConv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 3, kernel_size=3, padding=1)

    def forward(self, x):
        return self.conv(x)


def first_delegate_blob(program):
    """The processed bytes of the first delegate of the first method."""
    plan = program.execution_plan[0]
    assert plan.delegates, "nothing was delegated"
    delegate = plan.delegates[0]
    assert delegate.id == "XnnpackBackend", delegate.id
    processed = delegate.processed
    # DataLocation.INLINE (0): an index into backend_delegate_data.
    assert int(processed.location) == 0, processed.location
    return bytes(program.backend_delegate_data[processed.index].data)


def write(name, model, inputs):
    torch.manual_seed(0)
    lowered = to_edge_transform_and_lower(
        export(model.eval(), inputs), partitioner=[XnnpackPartitioner()]
    ).to_executorch()
    pte = lowered.buffer
    blob = first_delegate_blob(lowered.executorch_program)
    for ext, data in (("pte", pte), ("bin", blob)):
        path = os.path.join(OUT, f"{name}.{ext}")
        with open(path, "wb") as f:
            f.write(data)
        print(f"{name}.{ext} {len(data)} {hashlib.sha256(data).hexdigest()}")


def main():
    torch.manual_seed(0)
    write("linear_relu_add", LinearReluAdd(), (torch.randn(2, 4), torch.randn(2, 3)))
    torch.manual_seed(0)
    write("conv", TinyConv(), (torch.randn(1, 2, 5, 5),))


if __name__ == "__main__":
    main()
