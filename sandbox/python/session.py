# pytest's configuration made ahead (issue 36, docs/python-harness.md "Fork server"). Parsing pytest's command line
# and ini, and registering its 39 default plugins, is the same work for every job (the arguments are the harness's
# own, never a job's) and ≈ 20-30 ms of each. The fork server's template does it once, as pytest.main would, with
# the harness's plugin object registered at the same place; each job is a fork of the template, so each gets its own
# untouched copy of that configuration (nothing of one job can reach another's: a job never returns to the template)
# and fills the plugin object in with its payload before pytest's session starts.
import os
import sys
from pathlib import Path

PREPARED = {}  # the arguments (a tuple) -> (config, plugin object)
TAKEN = []  # the configuration this job took from PREPARED (tests/hostile/python-fork.test.ts looks)


def pytest_environment():
    """What pytest may read of the environment: no plugin autoload, no added options or plugins (boot.main)."""
    os.environ['PYTEST_DISABLE_PLUGIN_AUTOLOAD'] = '1'
    for name in ('PYTEST_ADDOPTS', 'PYTEST_PLUGINS'):
        os.environ.pop(name, None)


def prepare(args, plugin, cwd):
    """In the template: pytest.main's configuration step for `args`, run from `cwd` (the job's working directory)."""
    from _pytest.config import _prepareconfig
    pytest_environment()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        PREPARED[tuple(args)] = (_prepareconfig(list(args), [plugin]), plugin)
    finally:
        os.chdir(here)


def take(args):
    """The configuration made ahead for these arguments and this working directory, once; else None."""
    prepared = PREPARED.pop(tuple(args), None)
    PREPARED.clear()
    if prepared is None or prepared[0].invocation_params.dir != Path.cwd():
        return None
    TAKEN.append(prepared[0])
    return prepared


def finder_index(config):
    """Where the harness's import finders go: first, as before pytest.main, which then puts its assertion-rewriting
    hook in front of them; with a configuration made ahead, that hook is already there, so right behind it."""
    hook = getattr(getattr(config, '_assertstate', None), 'hook', None) if config is not None else None
    return sys.meta_path.index(hook) + 1 if hook is not None and hook in sys.meta_path else 0


def main(config):
    """pytest.main once its configuration exists (pytest 7.2's `main`, _pytest/config/__init__.py, from there on)."""
    from _pytest.config import ExitCode, UsageError
    from _pytest._io import TerminalWriter
    try:
        try:
            ret = config.hook.pytest_cmdline_main(config=config)
            try:
                return ExitCode(ret)
            except ValueError:
                return ret
        finally:
            config._ensure_unconfigure()
    except UsageError as e:
        tw = TerminalWriter(sys.stderr)
        for msg in e.args:
            tw.line(f"ERROR: {msg}\n", red=True)
        return ExitCode.USAGE_ERROR
