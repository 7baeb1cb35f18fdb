#!/usr/bin/env python3
"""Makes the upstream test programs of tests/data/upstream-programs/ again.

The modules are those that upstream ExecuTorch's test/models/export_program.py
exports for its C++ executor and Module tests, written again here from their
description; they are exported the way upstream's test/end2end/
exported_module.py does it (torch.export, to_edge without IR validity checks,
to_executorch with a greedy MemoryPlanningPass and the per-module options).

Needs upstream ExecuTorch's Python package (`pip install executorch torch`
in a virtual environment; the build and the tests read the committed files).
Writes into OUT (default: the current directory):

  ModuleAdd.pte             forward(x, y, alpha) = torch.add(x, y, alpha=alpha)
  ModuleAddHalf.pte         the same on float16 [2, 2]
  ModuleBasic.pte           forward(x: [100]) = sin(x).max(), max kept as the
                            functional aten::max (no out variant)
  ModuleIntBool.pte         forward(x: [1], y: int, z: bool) = x + y + int(z)
  ModuleNoOp.pte            forward(x, y) = (x, y)
  ModuleAddMul.pte          forward(x) = 3 * x + 2, constants in the .pte
  ModuleAddMulProgram.pte   the same, --external-constants: no constants ...
  ModuleAddMulProgram.ptd   ... they are in this FlatTensor file
  ModuleLinear.pte          forward(x: [3]) = Linear(3, 3)(x), seed 0
  ModuleLinearProgram.pte   the same with --external-constants ...
  ModuleLinearProgram.ptd   ... weight and bias here
  ModuleMultipleEntry.pte   forward(x) = x + 3, forward2(x) = x + 3 + 2
  ModuleSimpleTrain.pte     forward(x: [3], y: [3]) = cross_entropy(
                            softmax(Linear(3, 3)(x)), y) as a joint graph:
                            outputs loss, gradients, parameters
  ModuleStateful.pte        forward(x) = x + state after state += 1 (int32
                            mutable buffer, names emitted)
  ModuleSharedState.pte     forward(x) = (state += 1) + x, get_state(),
                            set_state(x): one float [1] buffer (ones) that
                            the three methods share (share_mutable_buffers)
  ModuleIndex.pte           forward(x: [10,10,10]) = x[1::2, [1, 2]]
  ModuleDynamicCatUnallocatedIO.pte
                            forward(k: [<=3, 4]) = cat(k, ones(1, 4)),
                            inputs and outputs not memory-planned
  expected.txt              ModuleLinear's seeded weight and bias, one eager
                            output, and ModuleSimpleTrain's loss and
                            gradients for one input, for the tests

    python3 make_upstream_programs.py --out /tmp/upstream-programs
"""

import argparse
import os

import torch
from executorch.exir import EdgeCompileConfig, ExecutorchBackendConfig, to_edge
from executorch.exir.passes import MemoryPlanningPass, ToOutVarPass
from torch.export import Dim, export
from torch.export.experimental import _export_forward_backward


class ModuleAdd(torch.nn.Module):
    def forward(self, x, y, alpha):
        return torch.add(x, y, alpha=alpha)

    def inputs(self):
        return (torch.randn(2, 2), torch.randn(2, 2), 1.0)


class ModuleAddHalf(ModuleAdd):
    def inputs(self):
        return (torch.randn(2, 2).half(), torch.randn(2, 2).half(), 1.0)


class ModuleBasic(torch.nn.Module):
    # aten::max.default has no out variant: kept functional.
    ignore_to_out_var_failure = True

    def forward(self, x):
        return torch.sin(x).max()

    def inputs(self):
        return (torch.randn(100),)


class ModuleIntBool(torch.nn.Module):
    def forward(self, x, y: int, z: bool):
        return x + y + int(z)

    def inputs(self):
        return (torch.ones(1), 1, True)


class ModuleNoOp(torch.nn.Module):
    def forward(self, x, y):
        return (x, y)

    def inputs(self):
        return (torch.randn(2, 2), torch.randn(2, 2))


class ModuleAddMul(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = 3 * torch.ones(2, 2)
        self.b = 2 * torch.ones(2, 2)

    def forward(self, x):
        return torch.add(torch.mul(self.a, x), self.b)

    def inputs(self):
        return (torch.ones(2, 2),)


class ModuleLinear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.linear(x)

    def inputs(self):
        return (torch.randn(3),)


class ModuleMultipleEntry(torch.nn.Module):
    methods = ["forward", "forward2"]

    def __init__(self):
        super().__init__()
        self.a = 3 * torch.ones(2, 2)
        self.b = 2 * torch.ones(2, 2)

    def forward(self, x):
        return x + self.a

    def forward2(self, x):
        return x + self.a + self.b

    def inputs(self):
        return (torch.ones(2, 2),)


class ModuleSimpleTrain(torch.nn.Module):
    joint = True

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 3)
        self.loss = torch.nn.CrossEntropyLoss()

    def forward(self, x, y):
        return self.loss(self.linear(x).softmax(dim=0), y)

    def inputs(self):
        return (torch.randn(3), torch.tensor([1.0, 0.0, 0.0]))


class ModuleStateful(torch.nn.Module):
    state_names = True

    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.zeros(1, dtype=torch.int32))

    def forward(self, x):
        self.state.add_(1)
        return x + self.state

    def inputs(self):
        return (torch.ones(1),)


class ModuleSharedState(torch.nn.Module):
    methods = ["forward", "get_state", "set_state"]
    state_names = True
    share_mutable_buffers = True

    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.ones(1))

    def forward(self, x):
        return self.state.add_(1) + x

    def get_state(self):
        return self.state

    def set_state(self, x):
        self.state.copy_(x)

    def inputs(self):
        return (torch.ones(1),)

    def method_inputs(self):
        return {"forward": (torch.ones(1),), "get_state": (),
                "set_state": (torch.ones(1),)}


class ModuleIndex(torch.nn.Module):
    def forward(self, x):
        # Makes a None index in aten::index.Tensor_out.
        return x[1::2, torch.tensor([1, 2])]

    def inputs(self):
        return (torch.randn(10, 10, 10),)


class ModuleDynamicCatUnallocatedIO(torch.nn.Module):
    def forward(self, k):
        return torch.cat((k, torch.ones(1, 4)))

    def inputs(self):
        return (torch.randn(3, 4),)

    def dynamic_shapes(self):
        return ({0: Dim("dim0_k", max=3)},)

    def memory_planning_pass(self):
        return MemoryPlanningPass(alloc_graph_input=False, alloc_graph_output=False)


def export_method(module, name, inputs, dynamic):
    """Exports one method of module as its forward, with the module's own
    attribute names (so that methods sharing a buffer name it alike)."""
    if name == "forward":
        return export(module, inputs, dynamic_shapes=dynamic, strict=True)
    module.forward = getattr(module, name)
    try:
        return export(module, inputs, dynamic_shapes=dynamic, strict=True)
    finally:
        del module.forward


def export_module(cls, external_constants=False):
    torch.manual_seed(0)
    module = cls().eval()
    inputs = module.inputs()
    dynamic = module.dynamic_shapes() if hasattr(module, "dynamic_shapes") else None
    methods = {}
    for name in getattr(cls, "methods", ["forward"]):
        if hasattr(module, "method_inputs"):
            inputs = module.method_inputs()[name]
        ep = export_method(module, name, inputs, dynamic)
        if getattr(cls, "joint", False):
            # Upstream's export_joint: forward and backward in one graph,
            # outputs loss, gradients, parameters.
            ep = _export_forward_backward(ep)
        methods[name] = ep
    planning = (
        module.memory_planning_pass()
        if hasattr(module, "memory_planning_pass")
        else MemoryPlanningPass(
            share_mutable_buffers=getattr(cls, "share_mutable_buffers", False))
    )
    config = ExecutorchBackendConfig(
        memory_planning_pass=planning,
        external_constants=external_constants,
        emit_mutable_buffer_names=getattr(cls, "state_names", False),
        to_out_var_pass=ToOutVarPass(getattr(cls, "ignore_to_out_var_failure", False)),
    )
    edge = to_edge(methods, compile_config=EdgeCompileConfig(_check_ir_validity=False))
    return module, edge.to_executorch(config)


def write(out, cls, external_constants=False):
    name = cls.__name__ + ("Program" if external_constants else "")
    module, program = export_module(cls, external_constants)
    with open(os.path.join(out, name + ".pte"), "wb") as f:
        program.write_to_file(f)
    if external_constants:
        # Upstream names the data file after the program the same way.
        data = program._tensor_data
        data[name] = data.pop("_default_external_constant")
        program.write_tensor_data_to_file(out)
    return module


def fmt(t):
    return " ".join(repr(v) for v in t.flatten().tolist())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".", help="directory to write into")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for cls in (ModuleAdd, ModuleAddHalf, ModuleBasic, ModuleIntBool, ModuleNoOp,
                ModuleAddMul, ModuleMultipleEntry, ModuleStateful,
                ModuleSharedState, ModuleIndex, ModuleDynamicCatUnallocatedIO):
        write(args.out, cls)
    write(args.out, ModuleAddMul, external_constants=True)
    linear = write(args.out, ModuleLinear)
    write(args.out, ModuleLinear, external_constants=True)
    train = write(args.out, ModuleSimpleTrain)

    # ModuleLinear's parameters come from torch.manual_seed(0); the tests
    # read them from here rather than hard-coding a generator's output.
    x = torch.tensor([1.0, -2.0, 0.5])
    with open(os.path.join(args.out, "expected.txt"), "w") as f:
        f.write("# name: values (float32, row-major), from eager PyTorch\n")
        f.write("linear.weight: %s\n" % fmt(linear.linear.weight.detach()))
        f.write("linear.bias: %s\n" % fmt(linear.linear.bias.detach()))
        f.write("linear([1, -2, 0.5]): %s\n" % fmt(linear(x).detach()))
        # ModuleSimpleTrain has the same seeded Linear(3, 3).
        y = torch.tensor([1.0, 0.0, 0.0])
        loss = train(x, y)
        loss.backward()
        f.write("train loss([1, -2, 0.5], [1, 0, 0]): %s\n" % fmt(loss.detach()))
        f.write("train grad linear.weight: %s\n" % fmt(train.linear.weight.grad))
        f.write("train grad linear.bias: %s\n" % fmt(train.linear.bias.grad))


if __name__ == "__main__":
    main()
