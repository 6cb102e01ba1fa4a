"""pytest plugin loaded by record.py with ``-p recorder_plugin``: writes every report to $AGREEMENT_OUT.

It only listens; it changes nothing pytest does, so the results are real pytest's.
"""
import json
import os

_collect_errors = []
_tests = {}


def _crash_message(report):
    """What pytest's short test summary quotes: the crash's exconly text."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message
    return str(report.longrepr)


def _skip_reason(report):
    # A skip's longrepr is (path, lineno, "Skipped: reason"); the summary drops the prefix.
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason


def _collect_message(report):
    """The last ``E   `` line of a collection failure: exception type and message, as exconly gives it."""
    lines = [line for line in str(report.longrepr).splitlines() if line.startswith("E   ")]
    return lines[-1][4:].strip() if lines else str(report.longrepr).strip().splitlines()[-1]


def pytest_collectreport(report):
    if report.failed:
        _collect_errors.append({"file": report.nodeid, "message": _collect_message(report)})


def pytest_runtest_logreport(report):
    entry = _tests.setdefault(report.nodeid, {"outcome": "passed", "message": ""})
    if report.when == "call":
        if report.skipped:
            entry.update(outcome="skipped", message=_skip_reason(report))
        elif report.failed:
            entry.update(outcome="failed", message=_crash_message(report))
    elif report.skipped:
        entry.update(outcome="skipped", message=_skip_reason(report))
    elif report.failed and entry["outcome"] != "error":
        # A failing setup or teardown makes the test an error, whatever its call did; the first one says why.
        entry.update(outcome="error", message=_crash_message(report))


def pytest_sessionfinish(session, exitstatus):
    with open(os.environ["AGREEMENT_OUT"], "w", encoding="utf-8") as out:
        json.dump({"collectErrors": _collect_errors, "tests": _tests}, out)
