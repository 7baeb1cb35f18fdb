#!/usr/bin/env python3
"""Runs the built executorch-generate the way a user would; one case per call.

Environment (set by tests/tools/meson.build): EXECUTORCH_GENERATE (the tool),
MAKE_TOY_DECODER (writes the toy decoder programs of
tests/runtime/extension/llm/toy_decoder.h and the tokens their C++ reference
generates), HAVE_SENTENCEPIECE (1 when the tool was built with it).
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

TOOL = os.environ["EXECUTORCH_GENERATE"]
MAKE_TOY = os.environ["MAKE_TOY_DECODER"]
HAVE_SP = os.environ.get("HAVE_SENTENCEPIECE") == "1"
PROMPT = "3,1,4,1,5,2,6,5,3"
ERROR_LINE = re.compile(r"^executorch-generate: error: Error::[A-Za-z]+: .+$")


class Failed(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failed(msg)


def run(*args):
    p = subprocess.run([TOOL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    print(f"$ executorch-generate {' '.join(args)}\n-> rc={p.returncode}")
    if out:
        print("stdout:\n" + out)
    if err:
        print("stderr:\n" + err)
    return p.returncode, out, err


def ok(*args):
    rc, out, err = run(*args)
    check(rc == 0, f"exit status {rc}, expected 0")
    return out, err


def fails(rc_want, pattern, *args):
    rc, out, err = run(*args)
    check(rc == rc_want, f"exit status {rc}, expected {rc_want}")
    lines = err.strip().splitlines()
    check(len(lines) == 1 and ERROR_LINE.match(lines[0]), "not one error line")
    check(re.search(pattern, lines[0]), f"error line does not match {pattern!r}")


class Toy:
    """The toy programs and the reference tokens, in a temporary directory."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="toy-decoder-")
        subprocess.run([MAKE_TOY, self.dir], check=True)
        self.expected = {}
        for line in open(os.path.join(self.dir, "expected.txt")):
            key, ids = line.split(":")
            self.expected[key] = [int(x) for x in ids.split()]

    def pte(self, name):
        return os.path.join(self.dir, name + ".pte")


def ids(text):
    return [int(x) for x in text.split()]


def case_help():
    out, _ = ok("--help")
    for opt in ("--prompt", "--temperature", "--top-p", "--top-k", "--seed", "--stop",
                "--backend-option", "--tokenizer", "--stats", "--json"):
        check(opt in out, f"--help does not mention {opt}")
    check(("not in this build" in out) != HAVE_SP, "--help misstates SentencePiece support")


def case_version():
    out, _ = ok("--version")
    check(re.match(r"^executorch-generate \d+\.\d+\.\d+$", out.strip()), "bad version line")


def case_greedy_ids():
    t = Toy()
    out, _ = ok(t.pte("prefill_decode"), "--prompt", PROMPT, "-n", "10")
    check(ids(out) == t.expected["prefill_decode 10"], "tokens differ from the reference")
    out, _ = ok(t.pte("prefill_decode"), "--prompt", PROMPT.replace(",", " "), "-n", "1")
    check(ids(out) == t.expected["prefill_decode 1"], "one token differs")
    out, _ = ok(t.pte("prefill_decode"), "--prompt", PROMPT, "-n", "10", "--echo")
    check(ids(out) == ids(PROMPT.replace(",", " ")) + t.expected["prefill_decode 10"],
          "--echo must print the prompt first")


def case_forward_metadata():
    t = Toy()
    out, _ = ok(t.pte("forward_meta"), "--prompt", PROMPT, "-n", "10")
    check(ids(out) == t.expected["forward_meta 10"], "forward program differs")
    # -1: until the program's context is full or its EOS (get_eos_ids).
    out, _ = ok(t.pte("forward_meta"), "--prompt", PROMPT, "-n", "-1")
    check(ids(out) == t.expected["forward_meta -1"], "context-filling run differs")


def case_json_stats():
    t = Toy()
    out, err = ok(t.pte("prefill_decode"), "--prompt", PROMPT, "-n", "10", "--json",
                  "--stats")
    check(out.count("\n") == 1, "--json must print one line")
    j = json.loads(out)
    check(j["prompt"] == ids(PROMPT.replace(",", " ")), "prompt in JSON")
    check(j["tokens"] == t.expected["prefill_decode 10"], "tokens in JSON")
    check(re.search(r"prefill 9 tokens in [\d.]+ ms \([\d.]+ tokens/s\); decode 9 tokens",
                    err), "--stats line")
    # Warm-up and timed runs (the toy's state only grows, so later runs make
    # other tokens than a real KV cache would; only the counts are checked).
    out, _ = ok(t.pte("prefill_decode"), "--prompt", PROMPT, "-n", "10", "--json",
                "--warmup", "1", "--runs", "3")
    j = json.loads(out)
    check(len(j["stats"]) == 3, "one stats object per timed run")
    for s in j["stats"]:
        check(s["prompt_tokens"] == 9 and s["generated_tokens"] == 10
              and s["decode_steps"] == 9, "token counts")
        check(s["prefill_tokens_per_second"] > 0 and s["decode_tokens_per_second"] > 0,
              "rates must be positive")


def case_sampling_seed():
    t = Toy()
    base = (t.pte("prefill_decode"), "--prompt", PROMPT, "-n", "10", "--temperature", "1.5",
            "--top-p", "0.95", "--top-k", "6")
    a, _ = ok(*base, "--seed", "7")
    b, _ = ok(*base, "--seed", "7")
    c, _ = ok(*base, "--seed", "8")
    check(a == b, "the same seed must give the same tokens")
    check(a != c, "another seed should give other tokens")
    check(len(ids(a)) == 10, "ten tokens")


def case_stop():
    t = Toy()
    full = t.expected["prefill_decode 10"]
    stop = full[4]
    out, _ = ok(t.pte("prefill_decode"), "--prompt", PROMPT, "-n", "10", "--stop", str(stop))
    check(ids(out) == full[:full.index(stop) + 1], "must stop after the stop token")


def case_errors():
    t = Toy()
    pd = t.pte("prefill_decode")
    fails(1, "AccessFailed|cannot load", os.path.join(t.dir, "missing.pte"), "--prompt", "1")
    not_pte = os.path.join(t.dir, "expected.txt")
    fails(1, "cannot load", not_pte, "--prompt", "1")
    fails(2, "no prompt", pd)
    fails(2, "not a list of token ids", pd, "--prompt", "1,x,3")
    fails(1, "outside the vocabulary", pd, "--prompt", "1,99")
    fails(1, "max_new_tokens", pd, "--prompt", "1", "-n", "-1")
    fails(2, "--text needs --tokenizer", pd, "--text", "hello")
    fails(2, "not BACKEND:KEY=VALUE", pd, "--prompt", "1", "--backend-option", "nonsense")
    fails(2, "--runs", pd, "--prompt", "1", "--runs", "0")
    fails(2, "see --help", pd, "--prompt", "1", "--no-such-option")
    fails(1, "not a program this tool can drive", pd, "--prompt", "1",
          "--decode-method", "step")


def case_tokenizer_unavailable_or_bad():
    t = Toy()
    bad = os.path.join(t.dir, "expected.txt")
    if HAVE_SP:
        fails(1, "cannot load SentencePiece model", t.pte("prefill_decode"),
              "--tokenizer", bad, "--text", "a")
    else:
        fails(1, "built without SentencePiece", t.pte("prefill_decode"),
              "--tokenizer", bad, "--text", "a")


def corpus_greedy_tokens(d):
    """The kv_decoder fixture's prompt and greedy tokens: calls.txt replays
    prefill(prompt) then decode steps whose inputs are the greedy tokens;
    the last one is the argmax of the last decode's logits."""
    calls = []
    for line in open(os.path.join(d, "calls.txt")):
        f = line.split()
        if f and f[0] == "call":
            calls.append([])
        elif f and f[0] in ("in", "out"):
            calls[-1].append((f[0], f[1], f[3]))

    def raw(name, fmt):
        data = open(os.path.join(d, name), "rb").read()
        return list(struct.unpack(f"<{len(data) // struct.calcsize(fmt)}{fmt}", data))

    prompt = raw(calls[0][0][2], "q")
    tokens = [raw(c[0][2], "q")[0] for c in calls[1:]]
    last = raw(calls[-1][-1][2], "f")
    tokens.append(max(range(len(last)), key=lambda i: (last[i], -i)))
    return prompt, tokens


def case_corpus_kv_decoder():
    d = os.environ["CORPUS_KV_DECODER"]
    prompt, want = corpus_greedy_tokens(d)
    out, _ = ok(os.path.join(d, "model.pte"), "--prompt", ",".join(map(str, prompt)),
                "-n", str(len(want)))
    check(ids(out) == want, f"greedy tokens {ids(out)}, the fixture's {want}")


# A SentencePiece model written here (protobuf by hand, sentencepiece_model
# .proto field numbers): unigram, identity normalizer, 8 pieces = the toy's
# vocabulary. (id, piece, score, type: 1 normal, 2 unknown, 3 control)
SP_PIECES = [(0, "\u2581a", -1.0, 1), (1, "<s>", 0.0, 3), (2, "</s>", 0.0, 3), (3, "b", -2.0, 1),
             (4, "\u2581", -2.0, 1), (5, "c", -2.0, 1), (6, "<unk>", 0.0, 2), (7, "a", -2.0, 1)]


def sp_model():
    def varint(n):
        out = b""
        while True:
            b, n = n & 0x7F, n >> 7
            out += bytes([b | (0x80 if n else 0)])
            if not n:
                return out

    def field(num, wire, payload):
        key = varint(num << 3 | wire)
        if wire == 2:
            return key + varint(len(payload)) + payload
        return key + payload

    model = b""
    for _, piece, score, kind in SP_PIECES:
        body = (field(1, 2, piece.encode()) + field(2, 5, struct.pack("<f", score)) +
                field(3, 0, varint(kind)))
        model += field(1, 2, body)
    trainer = (field(3, 0, varint(1)) + field(4, 0, varint(len(SP_PIECES))) +
               field(40, 0, varint(6)) + field(41, 0, varint(1)) + field(42, 0, varint(2)))
    normalizer = (field(1, 2, b"identity") + field(3, 0, varint(1)) + field(4, 0, varint(1)) +
                  field(5, 0, varint(1)))
    return model + field(2, 2, trainer) + field(3, 2, normalizer)


def sp_decode(ids):
    text = ""
    for i in ids:
        _, piece, _, kind = SP_PIECES[i]
        text += "" if kind == 3 else " \u2047 " if kind == 2 else piece
    text = text.replace("\u2581", " ")
    return text[1:] if text.startswith(" ") else text


def case_tokenizer_text():
    t = Toy()
    if not HAVE_SP:
        return
    model = os.path.join(t.dir, "toy.model")
    with open(model, "wb") as f:
        f.write(sp_model())
    pd = t.pte("prefill_decode")
    # "a bc" -> <s> \u2581a \u2581 b c (BOS first): the ids of expected.txt's "text" line.
    out, _ = ok(pd, "--tokenizer", model, "--text", "a bc", "-n", "10", "--json")
    j = json.loads(out)
    check(j["prompt"] == [1, 0, 4, 3, 5], f"encoded prompt {j['prompt']}")
    want = t.expected["prefill_decode text"]
    check(j["tokens"] == want, "tokens differ from the reference")
    check(j["text"] == sp_decode(want), f"text {j['text']!r}, expected {sp_decode(want)!r}")
    out, _ = ok(pd, "--tokenizer", model, "--text", "a bc", "-n", "10")
    check(out == sp_decode(want) + "\n", "streamed text differs from the decoded tokens")
    out, _ = ok(pd, "--tokenizer", model, "--text", "a bc", "-n", "10", "--no-bos", "--json")
    check(json.loads(out)["prompt"] == [0, 4, 3, 5], "--no-bos")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(CASES)}}}")
    try:
        CASES[sys.argv[1]]()
    except Failed as e:
        print(f"FAILED: {e}")
        sys.exit(1)
    print("OK")
