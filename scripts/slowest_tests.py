#!/usr/bin/env python3
"""Where a test phase's time went: its slowest families of ctest cases, and its slowest cases.

usage: slowest_tests.py JUNIT_XML [N]   (the XML is what `ctest --output-junit` wrote;
       N cases, 12 by default)

.ci/run prints it at exit for each build whose tests ran, so that a CI run that grew slower
says which cases grew, from the run itself.
"""
import collections
import sys
import xml.etree.ElementTree as ElementTree


def main():
    junit = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    root = ElementTree.parse(junit).getroot()
    cases = [(float(case.get("time") or 0), case.get("name")) for case in root.iter("testcase")]
    # A parameterized case's family (Corpus/UserModelCorpus.EveryBackendMeasuresIt) or a suite.
    families = collections.Counter()
    for seconds, name in cases:
        families[name.split("  #")[0].rsplit("/", 1)[0] if "/" in name else name.split(".")[0]] += seconds
    total = sum(seconds for seconds, _ in cases)
    print(f"{len(cases)} cases, {total:.0f} s of test time (summed over the parallel jobs)")
    print("slowest families:")
    for family, seconds in families.most_common(count):
        print(f"  {seconds:7.0f} s  {family}")
    print("slowest cases:")
    for seconds, name in sorted(cases, reverse=True)[:count]:
        print(f"  {seconds:7.1f} s  {name.split('  #')[0]}")


if __name__ == "__main__":
    main()
