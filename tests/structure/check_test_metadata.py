#!/usr/bin/env python3
"""Fails unless every ctest case of the build tree has a label and a timeout.

make test-fast and CI choose cases by label, and a case without a timeout
that hangs holds CI until its 90 minutes run out. What counts is what ctest
itself lists (ctest --show-only=json-v1), not what the CMakeLists mean to
say: gtest_discover_tests once turned LABELS "corpus;slow" into the label
"corpus" and no timeout for 66 cases.

usage: check_test_metadata.py CTEST BUILD_DIR
"""
import json
import subprocess
import sys


def main():
    ctest, build_dir = sys.argv[1:3]
    listing = subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    tests = json.loads(listing)["tests"]
    if not tests:
        print(f"ctest lists no test in {build_dir}: build the tests first")
        return 1
    missing = []
    for test in tests:
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        lacks = [name.lower() for name in ("LABELS", "TIMEOUT") if not properties.get(name)]
        if lacks:
            missing.append(f"{test['name']}: no {' and no '.join(lacks)}")
    for line in missing:
        print(line)
    if missing:
        print(f"{len(missing)} of {len(tests)} ctest cases lack a label or a timeout: give "
              "them LABELS and TIMEOUT (tests/CMakeLists.txt: tracebench_add_test_executable)")
        return 1
    print(f"all {len(tests)} ctest cases have a label and a timeout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
