#!/usr/bin/python3
"""Records real pytest's per-test results for every exercise and solution variant in this folder.

    /usr/bin/python3 tests/python-agreement/record.py

writes tests/python-agreement/expected.json, which Evigrade's Python grading is held to. Each run gets one
fresh, flat temporary directory holding the exercise's test files (``<slug>_test.py``, ``conftest.py``) and
the variant's ``<slug>.py``, the module the tests import by name, and runs

    python3 -m pytest -p no:cacheprovider -q -p recorder_plugin --rootdir <dir>

there, with the recording plugin on PYTHONPATH from a second directory, so the test directory holds exactly
what the sandbox gives the job. The environment is fixed (PYTHONHASHSEED=0, no CI variables, which would
stop pytest truncating long assertion explanations) so that recording twice gives the same file.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLUGIN = HERE / "recorder_plugin.py"
PYTEST_ARGS = ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-p", "recorder_plugin"]
PYTEST_VERSION = "7.2.1"
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def environment(plugin_dir, out):
    # Built from nothing: CI or BUILD_NUMBER in the recorder's own environment would reach pytest and stop it
    # truncating long assertion explanations, which changes the messages.
    return {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": str(plugin_dir),
        "AGREEMENT_OUT": str(out),
    }


def normalise(text, run_dir):
    for form in {str(run_dir), os.path.realpath(run_dir)}:
        text = text.replace(form, "<dir>")
    return ADDRESS.sub("0x…", text)


def run_one(exercise, solution):
    """Real pytest on one (exercise, solution): {"collectErrors": [...], "tests": {nodeid: {...}}}."""
    with tempfile.TemporaryDirectory(prefix="pyagree-") as scratch:
        run_dir = Path(scratch) / "run"
        plugin_dir = Path(scratch) / "plugin"
        run_dir.mkdir()
        plugin_dir.mkdir()
        shutil.copy(PLUGIN, plugin_dir / "recorder_plugin.py")
        for test_file in test_files(exercise):
            shutil.copy(test_file, run_dir / test_file.name)
        shutil.copy(solution, run_dir / solution.name)
        out = Path(scratch) / "results.json"
        proc = subprocess.run(
            [sys.executable, *PYTEST_ARGS, "--rootdir", str(run_dir)],
            cwd=run_dir, env=environment(plugin_dir, out), capture_output=True, text=True, timeout=120,
        )
        # 0 all passed, 1 some failed, 2 interrupted by a collection error; anything else is the recorder's fault.
        if proc.returncode not in (0, 1, 2) or not out.exists():
            raise RuntimeError(f"{exercise.name}/{solution.parent.name}: pytest exited {proc.returncode}\n{proc.stdout}{proc.stderr}")
        raw = json.loads(out.read_text(encoding="utf-8"))
        return {
            "collectErrors": [
                {"file": e["file"], "message": normalise(e["message"], run_dir)} for e in raw["collectErrors"]
            ],
            "tests": {
                nodeid: {"outcome": t["outcome"], "message": normalise(t["message"], run_dir)}
                for nodeid, t in raw["tests"].items()
            },
        }


def test_files(exercise):
    return sorted(p for p in exercise.iterdir() if p.is_file() and p.suffix == ".py")


def exercises():
    return sorted(p for p in HERE.iterdir() if (p / "solutions").is_dir())


def main():
    # PATH's python3 may be another interpreter with another pytest: the corpus is Debian's pytest on /usr/bin/python3.
    import pytest

    if pytest.__version__ != PYTEST_VERSION:
        sys.exit(f"record.py needs pytest {PYTEST_VERSION} (Debian's python3-pytest), run it as /usr/bin/python3; this is {pytest.__version__}")
    only = set(sys.argv[1:])
    expected_path = HERE / "expected.json"
    expected = json.loads(expected_path.read_text(encoding="utf-8")) if only and expected_path.exists() else {}
    for exercise in exercises():
        if only and exercise.name not in only:
            continue
        expected = {k: v for k, v in expected.items() if not k.startswith(exercise.name + "/")}
        for variant in sorted(p for p in (exercise / "solutions").iterdir() if p.is_dir()):
            solution = variant / f"{exercise.name}.py"
            expected[f"{exercise.name}/{variant.name}"] = run_one(exercise, solution)
        print(f"{exercise.name}: {len(list((exercise / 'solutions').iterdir()))} variants recorded", file=sys.stderr)
    expected_path.write_text(json.dumps(expected, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
