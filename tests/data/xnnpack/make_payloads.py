#!/usr/bin/env python3
"""Writes the XNNPACK fixtures of tests/xnnpack-backend (README.md here).

For each tiny model: lower it to upstream's XnnpackBackend with upstream's
exporter, save the whole program (<name>.pte) and the raw `processed` bytes
of its first delegate (<name>.bin), which is the payload our reader parses.

Run with the venv that has the executorch wheel, and torchvision on the path
(for its model classes only; README.md says how it was installed):
  PYTHONPATH=/tmp/tvlib /opt/et-venv/bin/python tests/data/xnnpack/make_payloads.py [NAME...]
(NAME: only those fixtures, e.g. mlp_8da4w; none: all of them)
"""
import hashlib
import os
import sys

import torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower
from torch.export import export
from torchvision.models import mobilenetv3
from torchvision.models.mobilenetv2 import MobileNetV2
from torchvision.models.resnet import BasicBlock
from torchvision.models.squeezenet import Fire
from torchvision.ops.misc import Conv2dNormActivation

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


class PoolMix(torch.nn.Module):
    """The node kinds the CNNs below do not use: constant pad, average
    pooling, sigmoid, a three-input concatenation and softmax. (Softmax over
    the flattened tensor: upstream's 1.5.1 runtime applies a softmax over
    the last dim of an NCHW tensor that its partition keeps NHWC to the
    channels, unlike eager.)"""

    def forward(self, x):
        a = torch.sigmoid(torch.nn.functional.avg_pool2d(
            torch.nn.functional.pad(x, (1, 1, 1, 1), value=0.5), 2))
        return torch.softmax(torch.cat([a, a * 2, a - 1], dim=1).reshape(1, -1), dim=-1)


def tiny_mobilenet_v2():
    """torchvision's MobileNetV2 at width 0.25 with its first four stages and
    a 64-channel last convolution (instead of 1280), 10 classes."""
    setting = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 2, 2]]
    m = MobileNetV2(num_classes=10, width_mult=0.25, inverted_residual_setting=setting)
    m.features[-1] = Conv2dNormActivation(16, 64, kernel_size=1,
                                          activation_layer=torch.nn.ReLU6)
    m.classifier[-1] = torch.nn.Linear(64, 10)
    return m


def tiny_mobilenet_v3_small():
    """torchvision's MobileNetV3 small at width 0.125, a 64-wide classifier
    (instead of 1024), 10 classes."""
    setting, _ = mobilenetv3._mobilenet_v3_conf("mobilenet_v3_small", width_mult=0.125)
    return mobilenetv3.MobileNetV3(setting, last_channel=64, num_classes=10)


class TinyResNet18(torch.nn.Module):
    """resnet18's layout (7x7/2 stem, 3x3/2 max pool, 2+2+2+2 torchvision
    BasicBlocks, global average pool, linear) at 1/16 of its widths."""

    def __init__(self, widths=(4, 8, 16, 32), num_classes=10):
        super().__init__()
        self.stem = torch.nn.Sequential(
            torch.nn.Conv2d(3, widths[0], 7, stride=2, padding=3, bias=False),
            torch.nn.BatchNorm2d(widths[0]), torch.nn.ReLU(inplace=True),
            torch.nn.MaxPool2d(3, stride=2, padding=1))
        layers, inplanes = [], widths[0]
        for i, planes in enumerate(widths):
            stride = 1 if i == 0 else 2
            down = None
            if stride != 1 or inplanes != planes:
                down = torch.nn.Sequential(
                    torch.nn.Conv2d(inplanes, planes, 1, stride=stride, bias=False),
                    torch.nn.BatchNorm2d(planes))
            layers += [BasicBlock(inplanes, planes, stride, down), BasicBlock(planes, planes)]
            inplanes = planes
        self.layers = torch.nn.Sequential(*layers)
        self.fc = torch.nn.Linear(inplanes, num_classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1))


class TinySqueezeNet11(torch.nn.Module):
    """squeezenet1_1's layout (torchvision Fire modules, ceil-mode max pools,
    a 1x1 convolution classifier and global average pool) at 1/8 width."""

    def __init__(self, num_classes=10):
        super().__init__()
        pool = lambda: torch.nn.MaxPool2d(3, stride=2, ceil_mode=True)  # noqa: E731
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(3, 16, 3, stride=2), torch.nn.ReLU(inplace=True), pool(),
            Fire(16, 4, 8, 8), Fire(16, 4, 8, 8), pool(),
            Fire(16, 8, 16, 16), Fire(32, 8, 16, 16), pool(),
            Fire(32, 12, 24, 24), Fire(48, 12, 24, 24), Fire(48, 16, 32, 32),
            Fire(64, 16, 32, 32))
        self.classifier = torch.nn.Sequential(
            torch.nn.Dropout(0.5), torch.nn.Conv2d(64, num_classes, 1),
            torch.nn.ReLU(inplace=True), torch.nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return torch.flatten(self.classifier(self.features(x)), 1)


# name -> (model builder, input shape); the CNNs are built (and their
# weights drawn) after torch.manual_seed(0).
CNNS = {
    "pool_mix": (PoolMix, (1, 2, 6, 6)),
    "mobilenet_v2": (tiny_mobilenet_v2, (1, 3, 64, 64)),
    "mobilenet_v3_small": (tiny_mobilenet_v3_small, (1, 3, 64, 64)),
    "resnet18": (TinyResNet18, (1, 3, 32, 32)),
    "squeezenet1_1": (TinySqueezeNet11, (1, 3, 64, 64)),
}


def build(name):
    """The model `name` of CNNS, with the weights of the fixture."""
    torch.manual_seed(0)
    model = CNNS[name][0]().eval()
    # Batch norm statistics other than 0/1, so folding them is exercised;
    # PyTorch's default init of the linear layers (torchvision's std 0.01
    # leaves the logits of the narrow models near 1e-4).
    with torch.no_grad():
        for mod in model.modules():
            if isinstance(mod, torch.nn.Linear):
                mod.reset_parameters()
            if isinstance(mod, torch.nn.BatchNorm2d):
                mod.running_mean.uniform_(-0.2, 0.2)
                mod.running_var.uniform_(0.5, 1.5)
    return model


class Mlp(torch.nn.Module):
    """An LLM's feed-forward shape in small: Linear(64, 128), relu,
    Linear(128, 32)."""

    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(64, 128)
        self.down = torch.nn.Linear(128, 32)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


# name -> (torchao weight dtype, granularity, input shape): upstream's
# dynamically quantized linear flow (int8 activations quantized per row at
# run time): "8da4w" with 4-bit weights in blocks of 32 input channels
# (qbint4), 4-bit (qcint4) and 8-bit (qcint8) weights per output channel.
QUANTIZED = {
    "mlp_8da4w": ("int4", 32, (1, 3, 64)),
    "mlp_8da4w_pc": ("int4", 0, (2, 64)),
    "mlp_8da8w": ("int8", 0, (2, 64)),
}


def build_quantized(name):
    """The quantized MLP `name` of QUANTIZED, weights drawn after
    torch.manual_seed(0), as users quantize them (torchao's quantize_ with
    Int8DynamicActivationIntxWeightConfig, as upstream's XNNPACK tests and
    LLM exports do)."""
    from torchao.quantization import Int8DynamicActivationIntxWeightConfig, quantize_
    from torchao.quantization.granularity import PerAxis, PerGroup

    dtype, group, _ = QUANTIZED[name]
    torch.manual_seed(0)
    model = Mlp().eval()
    quantize_(model, Int8DynamicActivationIntxWeightConfig(
        weight_dtype=getattr(torch, dtype),
        weight_granularity=PerGroup(group) if group else PerAxis(0)))
    return model


class QuantCnn(torch.nn.Module):
    """A small CNN for the static int8 flow: conv+relu, a depthwise conv,
    a residual add, relu, an average pool, a max pool, a global average
    pool and a linear classifier."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.dw = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        y = torch.relu(self.dw(y) + y)
        y = torch.nn.functional.max_pool2d(torch.nn.functional.avg_pool2d(y, 2), 2)
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(y, 1), 1))


# name -> (model class, input shape): upstream's static int8 flow (PT2E
# with XNNPACKQuantizer, symmetric per-channel config, calibrated on four
# random batches): qint8 activations, qcint8 weights, qcint32 biases.
STATIC = {
    "cnn_qs8": (QuantCnn, (1, 3, 16, 16)),
    "mlp_qs8": (Mlp, (2, 64)),
}


def build_static(name):
    """The statically quantized module `name` of STATIC (weights and
    calibration batches drawn after torch.manual_seed(0))."""
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer, get_symmetric_quantization_config)
    from torchao.quantization.pt2e import allow_exported_model_train_eval
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    cls, shape = STATIC[name]
    torch.manual_seed(0)
    model = cls().eval()
    quantizer = XNNPACKQuantizer().set_global(
        get_symmetric_quantization_config(is_per_channel=True))
    prepared = prepare_pt2e(export(model, (torch.randn(*shape),)).module(), quantizer)
    for _ in range(4):
        prepared(torch.randn(*shape))
    converted = convert_pt2e(prepared)
    allow_exported_model_train_eval(converted)  # write() calls eval()
    return converted


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
    model.eval()  # an exported (quantized) module's eval() returns None
    lowered = to_edge_transform_and_lower(
        export(model, inputs), partitioner=[XnnpackPartitioner()]
    ).to_executorch()
    pte = lowered.buffer
    blob = first_delegate_blob(lowered.executorch_program)
    for ext, data in (("pte", pte), ("bin", blob)):
        path = os.path.join(OUT, f"{name}.{ext}")
        with open(path, "wb") as f:
            f.write(data)
        print(f"{name}.{ext} {len(data)} {hashlib.sha256(data).hexdigest()}")


def main(names):
    """Writes the fixtures `names` (all when empty)."""
    def wanted(name):
        return not names or name in names

    if wanted("linear_relu_add"):
        torch.manual_seed(0)
        write("linear_relu_add", LinearReluAdd(), (torch.randn(2, 4), torch.randn(2, 3)))
    if wanted("conv"):
        torch.manual_seed(0)
        write("conv", TinyConv(), (torch.randn(1, 2, 5, 5),))
    for name, (_, shape) in CNNS.items():
        if wanted(name):
            write(name, build(name), (torch.randn(*shape),))
    for name, (_, _, shape) in QUANTIZED.items():
        if wanted(name):
            write(name, build_quantized(name), (torch.randn(*shape),))
    for name, (_, shape) in STATIC.items():
        if wanted(name):
            write(name, build_static(name), (torch.randn(*shape),))


if __name__ == "__main__":
    main(sys.argv[1:])
