#!/usr/bin/env python3
"""Fails on a ctest case that skipped without a reason on file.

A skipped gtest passes ctest, so a test that quietly stopped running (a
package missing, a build without a feature) would go unnoticed. Each skip
that is meant is listed in tests/deliberate_skips.csv with the build it
happens on and why; anything else that skipped fails CI. A listed skip that
did not happen is only reported: whether it happens can depend on the
machine (its CPU count, the packages it has).

usage: check_skips.py JUNIT_XML BUILD   (BUILD: debian or torch2; the XML
       is what `ctest --output-junit` wrote)
"""
import csv
import pathlib
import re
import sys
import xml.etree.ElementTree as ElementTree

LIST = pathlib.Path(__file__).resolve().parent.parent / "tests" / "deliberate_skips.csv"


def skipped_cases(junit):
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        if case.get("status") == "notrun" or case.find("skipped") is not None:
            yield case.get("name")


def main():
    junit, build = sys.argv[1:3]
    with open(LIST, newline="") as listing:
        rows = [row for row in csv.DictReader(line for line in listing if not line.startswith("#"))]
    deliberate = [(re.compile(row["test"]), row["reason"]) for row in rows if row["build"] == build]
    skipped = sorted(skipped_cases(junit))
    reasons = {name: next((r for p, r in deliberate if p.fullmatch(name)), None) for name in skipped}
    unexplained = [name for name, reason in reasons.items() if reason is None]
    stale = [p.pattern for p, _ in deliberate if not any(p.fullmatch(name) for name in skipped)]
    for name, reason in reasons.items():
        print(f"skipped: {name}: {reason or 'NOT ON THE LIST'}")
    for name in unexplained:
        print(f"error: {name} skipped, and {LIST.name} has no reason for it on {build}: make it "
              "run, or list it with its reason")
    for pattern in stale:
        print(f"note: {LIST.name} lists {pattern} as skipping on {build}, and it did not skip")
    print(f"{len(skipped)} skipped on {build}, {len(unexplained)} unexplained, {len(stale)} stale")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
