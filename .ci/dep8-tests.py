#!/usr/bin/env python3
"""Prints the tests of a debian/tests/control file, one per line, as
NAME|DEPENDS|RESTRICTIONS (DEPENDS space-separated package names, for
`apt-get install`), for .ci/distro-check.sh. Only what that control file
uses is understood: Tests, Depends (plain names and "@"), Restrictions."""
import re
import sys


def paragraphs(text):
    para = {}
    key = None
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if para:
                yield para
            para, key = {}, None
        elif line[0] in " \t" and key:
            para[key] += " " + line.strip()
        else:
            key, _, value = line.partition(":")
            key = key.strip().lower()
            para[key] = value.strip()
    if para:
        yield para


def main(path):
    for para in paragraphs(open(path, encoding="utf-8").read()):
        deps = []
        for dep in para.get("depends", "").split(","):
            dep = re.sub(r"\(.*?\)|\[.*?\]", "", dep).strip()
            if not dep or dep == "@":
                continue
            if "|" in dep:
                sys.exit(f"{path}: alternatives are not supported here: {dep}")
            deps.append(dep)
        for name in para["tests"].split():
            print(f"{name}|{' '.join(deps)}|{para.get('restrictions', '')}")


if __name__ == "__main__":
    main(sys.argv[1])
