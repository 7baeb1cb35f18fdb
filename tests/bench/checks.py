"""What the tests of the bench scripts share: named checks that print ok or
FAIL each and make the exit status."""
import sys


class Checks:
    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        self.failures += 0 if ok else 1

    def exit(self):
        print(f"{self.failures} failure(s)")
        sys.exit(1 if self.failures else 0)
