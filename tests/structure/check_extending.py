#!/usr/bin/python3
"""The README's "Extending tracebench", counted: a flag or a column is named in src/ by its one
table entry, its one struct member, and the code that uses or fills it, and nowhere else (no
hand-kept list of flags or columns). For a sample of each kind, the files of src/ that name the
member must be exactly those. Usage: check_extending.py SRC_DIR"""

import pathlib
import re
import sys

# What is added, the member it adds, the files the README says every such change takes, and
# the files that use this one's value.
CASES = [
    ("a flag that reaches the model's process (--flush-denormal)", "flush_denormal",
     {"runner/setting_fields_sampling.cpp", "runner/run_options.h"},
     {"runner/execution_settings.cpp", "runner/performance.cpp"}),
    ("a flag the parent keeps (--omp-wait)", "omp_wait",
     {"runner/setting_fields_processes.cpp", "runner/run_options.h"},
     {"orchestration/launcher.cpp"}),
    ("a result column (first_call_latency)", "first_call_latency_s",
     {"report/row_schema.cpp", "report/result_row.h"},
     {"runner/performance.cpp"}),
]


def files_naming(src, member):
    word = re.compile(r"\b" + re.escape(member) + r"\b")
    return {str(path.relative_to(src)) for path in src.rglob("*")
            if path.suffix in (".h", ".cpp") and word.search(path.read_text(errors="replace"))}


def main(src):
    problems = []
    for what, member, declared, users in CASES:
        found = files_naming(src, member)
        if not declared <= found:
            problems.append(f"{what}: {member} is no longer in {sorted(declared - found)}; "
                            "update this check and the README's Extending section")
        extra = found - declared - users
        if extra:
            problems.append(f"{what}: {member} is also named in {sorted(extra)}, beyond its "
                            f"{len(declared)} files and its use; derive it from the table there")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
