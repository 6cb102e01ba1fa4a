# Real pytest, run over tests that exist only in memory. pytest collects, runs, rewrites assertions and
# words every message itself; this plugin only feeds it the test modules (compiled here with pytest's own
# assertion rewriting, never read from a file the submission could have written), and turns its reports
# into frames. No conftest, ini file or plugin is ever read from disk: --noconftest, our own ini, no autoload.
import ast
import fnmatch
import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import os
import sys
import types
from pathlib import Path

import session
from boot import TESTS_DIR
from host import StudentFinder, Submission, SubmissionLoadError, SubmissionModule, SubmissionStopped, OutputLimit, fill_module

TEST_FILES = ('test_*.py', '*_test.py')
INI = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'pytest.ini')


def is_test_file(name):
    return any(fnmatch.fnmatch(name, p) for p in TEST_FILES)


class MemoryModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The rubric's own helper modules (not tests, not conftest), importable by name from memory."""

    def __init__(self, sources):
        self.sources = sources  # module name -> (file name, source)

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.sources:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, origin=os.path.join(TESTS_DIR, self.sources[fullname][0]))

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        file, source = self.sources[module.__name__]
        module.__file__ = os.path.join(TESTS_DIR, file)
        exec(compile_source(source, module.__file__, None), module.__dict__)


def remember_source(path, source):
    """Tracebacks and pytest's reports show the test's lines from here; no file is ever read."""
    lines = source.splitlines(True)
    linecache.cache[path] = (len(source), None, lines, path)


def compile_source(source, path, config):
    remember_source(path, source)
    tree = ast.parse(source, path)
    if config is not None:
        from _pytest.assertion.rewrite import rewrite_asserts
        rewrite_asserts(tree, source.encode('utf-8'), path, config)
    return compile(tree, path, 'exec', dont_inherit=True)


def load_memory_module(name, path, source, config):
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    try:
        exec(compile_source(source, path, config), module.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def student_module_names(root, test_sources, rubric_modules, mode):
    """Top-level names the tests may import from the submission (run: its files; collect: what the tests import)."""
    names = set()
    if mode == 'run':
        for entry in os.listdir(root):
            full = os.path.join(root, entry)
            if entry.endswith('.py') and os.path.isfile(full):
                names.add(entry[:-3])
            elif os.path.isdir(full) and os.path.isfile(os.path.join(full, '__init__.py')):
                names.add(entry)
    else:
        for source in test_sources:
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(a.name.split('.')[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split('.')[0])
        names = {n for n in names if importlib.util.find_spec(n) is None} if names else names
    # The rubric's own modules, the standard library and pytest are never the submission's.
    return {n for n in names if n not in rubric_modules and n not in sys.stdlib_module_names and n not in ('pytest', '_pytest', 'pluggy')}


class CollectStub(types.ModuleType):
    """While the hidden tests are collected there is no submission: any name imported from it is a stub."""

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)

        def unavailable(*args, **kwargs):
            raise RuntimeError('the submission is not available while the tests are collected')
        unavailable.__name__ = name
        return unavailable


# Characters of output kept per test, both streams together (as sandbox/harness/test-output.cjs).
TEST_OUTPUT_CHARS = 4096

class EvigradePlugin:
    def __init__(self, payload, channel, sub, events):
        self.payload = payload
        self.channel = channel
        self.sub = sub
        self.events = events
        self.sent_events = 0
        self.tests = [t for t in payload['tests'] if is_test_file(os.path.basename(t['name']))]
        self.conftests = [t for t in payload['tests'] if os.path.basename(t['name']) == 'conftest.py']
        self.index = {}  # nodeid -> (file, index)
        self.reports = {}
        self.stopped = {}
        self.interrupted = None  # what ended pytest's session from inside a test (KeyboardInterrupt, pytest.exit)
        self.collect_errors = 0
        self.load_error = None  # why the submission did not load, as sent once in a `loadError` frame

    def pytest_configure(self, config):
        _CONFIG[0] = config

    def pytest_keyboard_interrupt(self, excinfo):
        from _pytest.main import Session
        # pytest ends the session after a collection error; each one is reported with its file, and in a run
        # only the submission can cause one (the tests collected cleanly without it): not the harness's failure.
        if self.collect_errors and excinfo.errisinstance(Session.Interrupted):
            return
        self.interrupted = excinfo.exconly()

    def import_failed(self, error, source):
        """A test module's import failed. When the submission is why (its module did not import, or lacks a name
        the test imports from it), that is the student's error: said once, where in its files, never as a traceback."""
        if self.load_error is not None:
            return
        if isinstance(error, SubmissionLoadError):
            self.load_error = {'file': error.file, 'line': error.line, 'message': error.text}
        elif isinstance(error, ImportError) and isinstance(sys.modules.get(error.name or ''), SubmissionModule):
            self.load_error = _missing_names(sys.modules[error.name], source, self.payload['root'])
        if self.load_error is not None:
            self.channel.send('loadError', self.load_error)

    # -- collection, from memory only
    def pytest_collection(self, session):
        from _pytest.python import Module
        from _pytest.runner import collect_one_node
        config = session.config
        for t in self.conftests:
            mod = load_memory_module('conftest', os.path.join(TESTS_DIR, t['name']), t['source'], config)
            config.pluginmanager.consider_conftest(mod)
        items = []
        for t in self.tests:
            node = Module.from_parent(session, path=Path(TESTS_DIR, t['name']))
            rep = collect_one_node(node)
            session.ihook.pytest_collectreport(report=rep)
            found = []
            if rep.passed:
                for x in rep.result:
                    found.extend(session.genitems(x))
            self.collect_errors += 0 if rep.passed else 1
            error = None if rep.passed else self.load_error['message'] if self.load_error else _collect_message(rep)
            for i, item in enumerate(found):
                self.index[item.nodeid] = (t['name'], i)
            self.channel.send('collected', {'file': t['name'], 'tests': [{'index': i, 'path': [item.nodeid]} for i, item in enumerate(found)], 'error': error})
            items.extend(found)
        session.items = items
        session.testscollected = len(items)
        config.hook.pytest_collection_modifyitems(session=session, config=config, items=session.items)
        config.hook.pytest_collection_finish(session=session)
        return True

    def pytest_collection_modifyitems(self, session, config, items):
        only = self.payload.get('only')
        if self.payload['mode'] == 'collect':
            config.hook.pytest_deselected(items=list(items))
            items[:] = []
            return
        if only is None:
            return
        keep = [it for it in items if self.index.get(it.nodeid, (None, -1))[1] in (only.get(self.index.get(it.nodeid, ('', 0))[0]) or [])]
        dropped = [it for it in items if it not in keep]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = keep

    # -- running
    def limit_of(self, file, index):
        """The test's own time limit: the rubric's for this test (`test_limits`), else `limits.test_timeout_ms`."""
        own = (self.payload.get('testTimeouts') or {}).get(file) or {}
        ms = own.get(str(index)) if isinstance(own, dict) else None
        return ms if type(ms) is int and ms > 0 else self.payload['testTimeoutMs']

    def pytest_runtest_logstart(self, nodeid, location):
        file, index = self.index.get(nodeid, (None, None))
        limit = self.limit_of(file, index)
        if self.sub is not None:
            self.sub.new_test(limit, nodeid)
        if file is not None:
            # Announced with its limit: the grader stops a test that runs past it from outside (test-watch.ts).
            self.channel.send('start', {'file': file, 'index': index, 'timeoutMs': limit, 'budgetMs': limit})

    def pytest_runtest_makereport(self, item, call):
        if call.excinfo is not None and isinstance(call.excinfo.value, (SubmissionStopped, OutputLimit)):
            self.stopped.setdefault(item.nodeid, call.excinfo.value)

    def pytest_runtest_logreport(self, report):
        self.reports.setdefault(report.nodeid, []).append(report)

    def pytest_runtest_logfinish(self, nodeid, location):
        file, index = self.index.get(nodeid, (None, None))
        reports = self.reports.pop(nodeid, [])
        self.flush_events()
        if file is None:
            return
        status, message = outcome(reports, self.stopped.get(nodeid))
        duration = sum(r.duration for r in reports) * 1000
        self.send_output(file, index, reports)
        self.channel.send('result', {'file': file, 'index': index, 'path': [nodeid], 'status': status, 'durationMs': round(duration, 3), 'message': message})

    def send_output(self, file, index, reports):
        """What the test printed (pytest's capture: its own prints and the submission's, which the host writes
        there), bounded as the JavaScript harness bounds it (test-output.cjs)."""
        last = reports[-1] if reports else None  # each phase's report carries the sections of the phases before it
        left = TEST_OUTPUT_CHARS
        for stream, text in (('stdout', last.capstdout if last else ''), ('stderr', last.capstderr if last else '')):
            if not text or left <= 0:
                continue
            kept = text[:left]
            left -= len(kept)
            self.channel.send('output', {'file': file, 'index': index, 'stream': stream, 'text': kept,
                                         'truncated': len(kept) < len(text)})

    def flush_events(self):
        for code, detail in self.events[self.sent_events:]:
            if code == 'process_exit_called' or code.startswith('tampering.'):
                self.channel.send('tamper', {'code': code, 'detail': detail})
            elif code == 'output_limit':
                self.channel.send('limit', {'code': code, 'detail': detail})
            else:
                self.channel.send('note', {'code': code, 'detail': detail})
        self.sent_events = len(self.events)


def _missing_names(module, source, root):
    """What a test imports by name from the submission's module and the module does not define."""
    wanted = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == module.__name__:
            wanted.extend(a.name for a in node.names if a.name != '*')
    missing = [n for n in dict.fromkeys(wanted) if n not in module.__dict__]
    own = (module.__dict__.get('__evigrade_star__') or ((),))[0]
    file = os.path.relpath(module.__file__, root) if isinstance(module.__file__, str) else None
    message = 'the tests import %s, which this file does not define (%s)' % (
        ', '.join(missing) or 'a name', 'it defines %s' % ', '.join(own) if own else 'it defines no public name')
    return {'file': file, 'line': None, 'message': message}


def _collect_message(rep):
    text = str(rep.longrepr)
    return text.replace(TESTS_DIR + '/', '')


def _message(report):
    """What pytest's short summary quotes: the crash's exception text, or a skip's reason."""
    longrepr = report.longrepr
    if longrepr is None:
        return ''
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
        return reason[len('Skipped: '):] if reason.startswith('Skipped: ') else reason
    crash = getattr(longrepr, 'reprcrash', None)
    return crash.message if crash is not None else str(longrepr)


def outcome(reports, stopped):
    """The test's outcome as pytest's summary lists it: the call decides, unless a setup or teardown failed
    (an error, whatever the call did, said by the first that failed), or a phase skipped."""
    if isinstance(stopped, SubmissionStopped) and stopped.status == 'timeout':
        return 'timeout', str(stopped)
    status, message = 'passed', ''
    for r in reports:
        if r.when == 'call':
            if r.skipped:
                status, message = 'skipped', _message(r)
            elif r.failed:
                status, message = 'failed', _message(r)
        elif r.skipped:
            status, message = 'skipped', _message(r)
        elif r.failed and status != 'error':
            status, message = 'error', _message(r)
    return status, message


ARGS = ['-c', INI, '--rootdir', TESTS_DIR, '-p', 'no:cacheprovider', '--noconftest', '--capture=sys', '-q', TESTS_DIR]


def prepare(cwd):
    """The fork server's template: pytest's configuration for a job's arguments, with a plugin object each job fills in
    (session.py); registered where pytest.main registers a job's own."""
    session.prepare(ARGS, EvigradePlugin.__new__(EvigradePlugin), cwd)


def run(payload, channel, spare=None):
    import pytest
    root = payload['root']
    events = []
    # A rubric audit's mutant run: only "killed or not" matters, so pytest stops at the first failure.
    args = (['-x'] if payload.get('stopAtFirstFailure') is True else []) + ARGS
    config, plugin = session.take(args) or (None, None)
    sub = _submission(payload, events, spare, session.finder_index(config))
    if plugin is None:
        plugin = EvigradePlugin(payload, channel, sub, events)
    else:
        plugin.__init__(payload, channel, sub, events)
    if sub is not None:
        sub.announce = plugin.flush_events
    _serve_test_modules_from_memory(payload, plugin.import_failed)
    try:
        code = pytest.main(args, plugins=[plugin]) if config is None else session.main(config)
        if sub is not None and sub.coverage:
            _send_coverage(sub, channel)
        # Failing tests are verdicts; pytest failing in itself is the harness's failure, never one. So is a
        # session ended from inside a test (red-team F5): no `done`, the running test is charged and the rest
        # resume. (pytest also says INTERRUPTED after collection errors; those are reported per file.)
        if code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR) or plugin.interrupted is not None:
            plugin.flush_events()
            raise RuntimeError('pytest stopped with %s%s' % (code.name, ': %s' % plugin.interrupted if plugin.interrupted else ''))
    finally:
        if sub is not None:
            sub.kill()
    plugin.flush_events()
    return len(plugin.tests)


def _submission(payload, events, spare, at):
    """The submission's side (a run's process, or a collection's stubs) and the import finders, at `at` in sys.meta_path."""
    root = payload['root']
    rubric_modules = {os.path.basename(t['name'])[:-3] for t in payload['tests'] if t['name'].endswith('.py')}
    helpers = {os.path.basename(t['name'])[:-3]: (t['name'], t['source']) for t in payload['tests']
               if t['name'].endswith('.py') and not is_test_file(os.path.basename(t['name'])) and os.path.basename(t['name']) != 'conftest.py'}
    names = student_module_names(root, [t['source'] for t in payload['tests']], rubric_modules, payload['mode'])
    sub = None
    if payload['mode'] == 'run':
        memory = int(payload.get('memoryBytes') or 0)
        sub = Submission(root, memory, int(payload['outputBytes']), payload['testTimeoutMs'], events,
                         coverage=payload.get('coverage') is True, spare=spare)
        sys.meta_path.insert(at, StudentFinder(names, lambda m: fill_module(sub, m, root), root))
    else:
        if spare is not None:
            spare.discard()
        sys.meta_path.insert(at, StudentFinder(names, lambda m: m.__class__ is CollectStub or setattr(m, '__class__', CollectStub), root))
    sys.meta_path.insert(at, MemoryModules(helpers))
    return sub


def _send_coverage(sub, channel):
    """A rubric audit's reference run: the lines its (last) submission process ran. A process stopped earlier took
    its lines with it; the reference passes every test, so its one process normally served them all."""
    if sub.proc is None or sub.proc.poll() is not None:
        return
    try:
        files = sub.request('coverage', None)
    except Exception:  # noqa: BLE001 - no coverage frame: the audit says coverage was not measured
        return
    if type(files) is list:
        channel.send('coverage', {'files': files})


def _serve_test_modules_from_memory(payload, import_failed):
    """pytest imports each test module through `import_path`; here that reads from memory, never from disk."""
    import _pytest.python as python
    sources = {os.path.join(TESTS_DIR, t['name']): t['source'] for t in payload['tests']}
    original = python.import_path

    def import_path(path, *, mode, root):
        key = str(path)
        if key not in sources:
            return original(path, mode=mode, root=root)
        name = Path(key).stem
        if name in sys.modules and getattr(sys.modules[name], '__file__', None) == key:
            return sys.modules[name]
        try:
            return load_memory_module(name, key, sources[key], _CONFIG[0])
        except BaseException as e:  # noqa: B036 - told, then raised on to pytest as before
            import_failed(e, sources[key])
            raise

    python.import_path = import_path


_CONFIG = [None]  # the session's config, for pytest's assertion rewriting of the modules it imports
