#!/usr/bin/python3
"""The README's "Extending tracebench", counted, one check per recipe:
- a flag or a column is named in src/ by its one table entry, its one struct member, and the
  code that uses or fills it, and nowhere else (no hand-kept list of flags or columns): for a
  sample of each kind, the files of src/ that name the member must be exactly those;
- a report format is its entry in report_file_formats() and its render function in a file of its
  own: its flag and its render function are named nowhere else in src/;
- a backend is its own file in src/backends/ registering it, plus auto's candidate list if auto
  tries it: a sample backend's name is in no other file of src/, and every registered backend has
  rows in tests/corpus/expected_rows.csv and a line in docs/backends.md.
Usage: check_extending.py SRC_DIR (the repository's src/)"""

import pathlib
import re
import sys

# What is added, the member it adds, the files the README says every such change takes, and
# the files that use this one's value.
CASES = [
    ("a flag that reaches the model's process (--flush-denormal)", "flush_denormal",
     {"settings/setting_fields_sampling.cpp", "settings/run_options.h"},
     {"execution/execution_settings.cpp", "performance/performance.cpp"}),
    ("a flag the parent keeps (--omp-wait)", "omp_wait",
     {"settings/setting_fields_processes.cpp", "settings/run_options.h"},
     {"orchestration/launcher.cpp"}),
    ("a result column (first_call_latency)", "first_call_latency_s",
     {"report/row_schema.cpp", "report/result_row.h"},
     {"performance/performance.cpp"}),
]


def files_naming(src, member):
    word = re.compile(r"\b" + re.escape(member) + r"\b")
    return {str(path.relative_to(src)) for path in src.rglob("*")
            if path.suffix in (".h", ".cpp") and word.search(path.read_text(errors="replace"))}


# A report format: its flag and render function, and the files the README says it takes.
FORMAT = ("markdown", "render_markdown",
          {"report/reporters.cpp"}, {"report/markdown.h", "report/markdown.cpp", "report/reporters.cpp"})

# A backend: its registered name, its own file, and where else the README says it may be named.
BACKEND = ("xnnpack", "backends/xnnpack.cpp", {"backends/auto.cpp"})

REGISTERED = re.compile(r'BuiltinBackend\s+k\w+\(\s*"([a-z0-9_]+)"')


def files_naming_text(src, text):
    return {str(path.relative_to(src)) for path in src.rglob("*")
            if path.suffix in (".h", ".cpp") and text in path.read_text(errors="replace")}


def report_format_problems(src):
    flag, render, flag_files, render_files = FORMAT
    problems = []
    if files_naming_text(src, f'"{flag}"') != flag_files:
        problems.append(f"the report format --{flag} is named in "
                        f"{sorted(files_naming_text(src, chr(34) + flag + chr(34)))}, not only in its "
                        "report_file_formats() entry; a format takes its entry and its render function")
    if files_naming(src, render) != render_files:
        problems.append(f"{render} is named in {sorted(files_naming(src, render))}, not only in "
                        f"{sorted(render_files)}; update this check and the README's Extending section")
    return problems


def backend_problems(src):
    name, own_file, may_name = BACKEND
    root = src.parent
    problems = []
    found = files_naming_text(src, f'"{name}"')
    if own_file not in found:
        problems.append(f"the backend {name} is no longer registered in {own_file}; update this check")
    extra = found - {own_file} - may_name
    if extra:
        problems.append(f"the backend {name} is also named in {sorted(extra)}: a backend takes its own "
                        "file and auto's candidate list, and the README's recipe says so")
    registered = set()
    for path in (src / "backends").rglob("*.cpp"):
        registered.update(REGISTERED.findall(path.read_text(errors="replace")))
    expected_rows = (root / "tests/corpus/expected_rows.csv").read_text()
    backends_doc = (root / "docs/backends.md").read_text()
    for backend in sorted(registered):
        if not re.search(rf"^[^#\n]*,{re.escape(backend)},", expected_rows, re.M):
            problems.append(f"the backend {backend} has no rows in tests/corpus/expected_rows.csv: "
                            "make record-expected-rows (and record-expected-rows-torch2)")
        if f"`{backend}`" not in backends_doc:
            problems.append(f"the backend {backend} is not in docs/backends.md: describe it there, "
                            "then scripts/corpus_table.py --write docs/backends.md")
    if len(registered) < 10:
        problems.append(f"found only {len(registered)} registered backends; has BuiltinBackend changed?")
    return problems


def main(src):
    problems = report_format_problems(src) + backend_problems(src)
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
