# The test process: real pytest over the hidden tests, which exist only in this process's memory, with the
# submission behind a process boundary (host.py). Results leave on the authenticated channel, as from the
# JavaScript harness: one HMAC-signed frame per line on fd 3 (stderr under Docker), the key from stdin.
#
# Nothing the submission's process can reach decides a verdict: the tests, pytest and its assertion
# rewriting, the comparisons and the channel all live here, in a process the submission cannot trace or
# read (it is made non-dumpable before the submission's process exists).
import hashlib
import hmac
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
# Tests are collected from memory under this directory: it exists in the read-only root and holds nothing.
TESTS_DIR = os.path.join(HERE, 'tests')
FRAMES_FD = 2 if os.environ.pop('EVIGRADE_FRAMES_FD', '') == '2' else 3
LEAD = '\n' if FRAMES_FD == 2 else ''


def write_all(text):
    data = text.encode('utf-8')
    while data:
        n = os.write(FRAMES_FD, data)
        data = data[n:]


class Channel:
    def __init__(self, key):
        self.key = key.encode('utf-8')
        self.seq = 0

    def send(self, type_, data):
        self.seq += 1
        body = json.dumps(data, separators=(',', ':'), ensure_ascii=True)
        mac = hmac.new(self.key, ('%d|%s|%s' % (self.seq, type_, body)).encode('utf-8'), hashlib.sha256).hexdigest()
        write_all('%s{"seq":%d,"type":%s,"data":%s,"mac":"%s"}\n' % (LEAD, self.seq, json.dumps(type_), body, mac))


def non_dumpable():
    """The submission's process runs as the same uid: without this it could read this process's memory."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE, 0
        raise OSError(ctypes.get_errno(), 'prctl(PR_SET_DUMPABLE) failed')


class Deferred(types.ModuleType):
    """A module whose code runs the first time a name it has not defined is read (`module.__getattr__` is only
    asked for missing names, so the import system's own reads of __spec__ and __path__ never run it)."""

    def __getattr__(self, attr):
        if attr.startswith('__'):
            raise AttributeError(attr)
        self.__class__ = types.ModuleType
        self.__spec__.loader.exec_module(self)
        return getattr(self, attr)


def defer_import(name):
    """pluggy and pytest import importlib.metadata (and with it email, zipfile, csv: ≈ 40 ms of a job's CPU) only to
    find plugins by entry point, which a job never does (plugin autoload is off). It is loaded on first use instead:
    a test that uses it gets the real module. (importlib.util.LazyLoader does not help: Python 3.11's import statement
    reads __spec__ of a module already imported, which runs it.)"""
    import importlib.util
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    module.__class__ = Deferred
    sys.modules[name] = module
    parent, _, child = name.rpartition('.')
    if parent:
        setattr(sys.modules[parent], child, module)


NOBODY = 65534


def deliver(payload):
    """Docker's pre-started containers (as sandbox/harness/deliver.cjs): the submission's files come in the
    payload; written as root into the root-owned /job/sub, then root is dropped for good, before any
    submission code exists. A payload without files changes nothing."""
    files = payload.pop('files', None)
    if files is None:
        return
    if os.getuid() != 0:
        raise OSError('files in the payload but the harness is not root: refusing to write them')
    import base64
    for f in files:
        rel = f.get('path') if isinstance(f, dict) else None
        if not isinstance(rel, str) or not rel or '\0' in rel or rel.startswith('/') or any(s in ('', '.', '..') for s in rel.split('/')):
            raise OSError('bad file in payload: %r' % (rel,))
        dest = os.path.join(payload['root'], rel)
        os.makedirs(os.path.dirname(dest), mode=0o755, exist_ok=True)
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, 'wb') as out:
            out.write(base64.b64decode(f['base64']))
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    if os.getresuid() != (NOBODY,) * 3 or os.getresgid() != (NOBODY,) * 3:
        raise OSError('could not drop root')


def main(ahead=False):
    """`ahead`: under the fork server (forkserver.py), the submission's process is forked here first (spare.py), while
    nothing of the job exists in this process yet, and before `hello`, so the grader confines it with this one."""
    spare = None
    if ahead:
        import spare as forked
        spare = forked.fork()
    write_all(LEAD + '{"seq":0,"type":"hello","data":null,"mac":""}\n')
    # fd 0 itself: under the fork server, pytest's configuration (made ahead) already stands in for sys.stdin.
    with open(0, 'rb', closefd=False) as stdin:
        payload = json.loads(stdin.read().decode('utf-8'))
    os.close(0)
    try:
        deliver(payload)
    except BaseException as e:  # noqa: B036 - a failed delivery is the harness's failure, never a verdict
        Channel(payload['key']).send('fatal', {'message': 'file delivery: %s' % e})
        os._exit(70)
    # pytest's own terminal report would show the hidden tests' source: it goes nowhere.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    channel = Channel(payload['key'])
    try:
        non_dumpable()
        sys.path[:] = [HERE] + [p for p in sys.path if p and p != payload['root'] and not p.startswith(payload['root'] + '/')]
        sys.set_int_max_str_digits(0)
        os.environ['PYTEST_DISABLE_PLUGIN_AUTOLOAD'] = '1'
        for name in ('PYTEST_ADDOPTS', 'PYTEST_PLUGINS'):
            os.environ.pop(name, None)
        defer_import('importlib.metadata')
        from plugin import run
        files = run(payload, channel, spare)
    except BaseException as e:  # noqa: B036 - any failure of the harness is reported, never a verdict
        import traceback
        channel.send('fatal', {'message': ''.join(traceback.format_exception(e))[-4000:]})
        sys.stdout.flush()
        os._exit(1)
    channel.send('done', {'files': files})
    sys.stdout.flush()
    os._exit(0)


if __name__ == '__main__':
    main()
