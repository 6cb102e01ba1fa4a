# What the submission's code attempts at run time, seen by CPython's audit hooks (issue 30): whatever name it
# built to get there (getattr, the builtins dict, importlib), the interpreter raises the same event. Each
# attempt is one line "<code>\t<detail>\n" on a pipe only the test process reads (host.py); the report turns
# it into an `attempt` sandbox event and a `sandbox.attempt.*` flag. The sandbox, not this hook, is the
# boundary: the hook tells the instructor what was tried, and honest code (imports, its own files, the
# stdlib reading its own configuration, pytest's machinery in the other process) must raise nothing.
import os
import sys

READ, ENV, SPAWN, SIGNAL, NETWORK, NATIVE = (
    'sandbox.attempt.read_outside', 'sandbox.attempt.env', 'sandbox.attempt.spawn', 'sandbox.attempt.signal',
    'sandbox.attempt.network', 'sandbox.attempt.native')
CODES = frozenset((READ, ENV, SPAWN, SIGNAL, NETWORK, NATIVE))  # what the test process accepts on the pipe
SPAWNS = {'subprocess.Popen', 'os.system', 'os.exec', 'os.posix_spawn', 'os.spawn', 'os.fork', 'os.forkpty',
          'os.startfile', 'pty.spawn'}
SIGNALS = {'os.kill', 'os.killpg'}
NETWORKS = {'socket.connect', 'socket.bind', 'socket.sendto', 'socket.sendmsg', 'socket.getaddrinfo',
            'socket.gethostbyname', 'socket.gethostbyname_ex', 'socket.gethostbyaddr', 'socket.getnameinfo',
            'urllib.Request'}
LISTINGS = {'os.listdir', 'os.scandir', 'glob.glob', 'os.chdir'}
# Modules that open the path a caller gives them: an open from one of these is the caller's. Any other
# standard-library module opening a file reads its own configuration (mimetypes, platform, ssl, locale).
PATH_OPENERS = {'pathlib', 'io', '_pyio', 'os', 'shutil', 'codecs', 'fileinput', 'glob', 'gzip',
                'bz2', 'lzma', 'zipfile', 'tarfile', 'csv', 'json', 'linecache', 'tokenize'}
# (tempfile is not one: it opens directories it chose itself, probing /var/tmp and others where /tmp is not writable.)
# Native code runs where no audit hook sees it: a foreign function called through ctypes can read any file, the
# environment or signal a process without one event. What the hooks can see is the way in — the FFI module imported,
# a library loaded, a symbol looked up, memory read at an address — so that is the attempt (`native`), reported when
# the submission's own code takes it (not ctypes' own import-time set-up, not a standard-library module using it).
FFI_MODULES = {'ctypes', '_ctypes'}
NATIVE_EVENTS = {'ctypes.dlopen': 'loaded library %s', 'ctypes.dlsym': 'looked up %s', 'ctypes.dlsym/handle': 'looked up %s',
                 'ctypes.cdata': 'read memory at an address', 'ctypes.string_at': 'read memory at an address',
                 'ctypes.wstring_at': 'read memory at an address'}
MAX_DETAIL = 200


def install(root, fd):
    """Installs the hook for the rest of this process (audit hooks cannot be removed)."""
    root = os.path.realpath(root)
    stdlib = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.__file__))}
    here = os.path.dirname(os.path.realpath(__file__))
    me = os.getpid()
    realpath = os.path.realpath
    inside = tuple(realpath(p).rstrip('/') + '/' for p in (root, here, '/tmp', '/dev/null', '/dev/zero', '/dev/urandom',
                                                           '/dev/random', '/dev/full', *stdlib))
    own_proc = ('/proc/self/', '/proc/%d/' % me)
    std_files = tuple(p.rstrip('/') + '/' for p in stdlib)
    write, getframe, fspath, join, normpath = os.write, sys._getframe, os.fspath, os.path.join, os.path.normpath
    sent = set()

    def report(code, detail):
        detail = detail.replace('\t', ' ').replace('\n', ' ')[:MAX_DETAIL]
        if (code, detail) in sent or len(sent) > 256:
            return
        sent.add((code, detail))
        try:
            write(fd, ('%s\t%s\n' % (code, detail)).encode('utf-8', 'replace'))
        except OSError:
            pass

    def module_of(frame):
        name = frame.f_globals.get('__name__') if type(frame.f_globals) is dict else None
        return name.split('.')[0] if isinstance(name, str) else ''

    def in_stdlib(f):
        name = f.f_code.co_filename
        return name.startswith('<frozen ') or ((name + '/').startswith(std_files) and not name.startswith(root + '/'))

    def from_stdlib_config(depth):
        """True when the file is opened by a standard-library module for itself, not a path-opening API."""
        f = getframe(depth)
        while f is not None and module_of(f) in PATH_OPENERS and in_stdlib(f):
            f = f.f_back
        return f is not None and in_stdlib(f)

    def by_submission(depth, through):
        """True when the frame `depth` up, past frames of the standard-library modules in `through`, is the
        submission's own code."""
        f = getframe(depth + 1)
        while f is not None and module_of(f) in through and in_stdlib(f):
            f = f.f_back
        return f is not None and f.f_code.co_filename.startswith(root + '/')

    def native(event, args):
        if event == 'import':
            # the importing frame is past importlib's own (frozen) frames
            if args and args[0] in FFI_MODULES and by_submission(2, ('importlib',)):
                report(NATIVE, 'imported %s' % args[0])
        elif by_submission(2, FFI_MODULES):
            what = args[1] if event.startswith('ctypes.dlsym') and len(args) > 1 else args[0] if args else None
            name = what if isinstance(what, str) else 'the process itself' if what is None else '#%r' % (what,)
            text = NATIVE_EVENTS[event]
            report(NATIVE, text % name if '%s' in text else text)

    def path_of(p):
        try:
            p = fspath(p)
        except TypeError:
            return None
        if isinstance(p, bytes):
            p = p.decode('utf-8', 'replace')
        return normpath(join(root, p)) if isinstance(p, str) else None

    def where(p):
        """The file a path leads to, symlinks followed: /proc/self/root, /proc/self/fd and a link made in /tmp
        lead out of wherever their names point."""
        try:
            return realpath(p)
        except (OSError, ValueError):
            return p

    def hook(event, args):
        if event == 'open' or event in LISTINGS:
            p = path_of(args[0]) if args and not isinstance(args[0], int) else None
            if p is None:
                return
            q = where(p)
            if any(x.startswith(('/proc/self/environ', '/proc/%d/environ' % me)) for x in (p, q)):
                report(ENV, 'read %s' % p)
            elif not (q + '/').startswith(inside + own_proc) and not from_stdlib_config(2):
                report(READ, '%s %s' % ('listed' if event in LISTINGS else 'opened', p))
        elif event in SPAWNS:
            what = args[1] if event == 'subprocess.Popen' and len(args) > 1 else args[0] if args else ''
            report(SPAWN, '%s %s' % (event, what if isinstance(what, str) else repr(what)[:120]))
        elif event in SIGNALS:
            pid = args[0] if args else None
            if isinstance(pid, int) and pid != me:
                report(SIGNAL, '%s(%r, %r)' % (event, pid, args[1] if len(args) > 1 else None))
        elif event in NETWORKS:
            own = event in ('socket.connect', 'socket.bind', 'socket.sendto', 'socket.sendmsg')
            report(NETWORK, '%s %r' % (event, args[1:2] if own else args[:2]))
        elif event in ('os.putenv', 'os.unsetenv'):
            report(ENV, '%s %r' % (event, args[0]))
        elif event in NATIVE_EVENTS or event == 'import':
            native(event, args)

    sys.addaudithook(hook)
    _watch_environ(report, root)
    _watch_unaudited(report, root, me)


def _watch_environ(report, root):
    """Reading the environment raises no audit event: os.environ (and posix's) become mappings that note a
    read made by the submission's own code (a standard-library module reading, say, TMPDIR is not one)."""
    import posix
    getframe = sys._getframe
    # By module name: os and _collections_abc are frozen modules in 3.11 (no file of their own).
    own_doors = {'os', '_collections_abc', 'collections.abc', __name__}

    def asked_by_submission():
        f = getframe(2)
        # os.getenv and the Mapping methods (get, in, items) are the environment's own doors, not a reader.
        while f is not None and type(f.f_globals) is dict and f.f_globals.get('__name__') in own_doors:
            f = f.f_back
        return f is not None and f.f_code.co_filename.startswith(root + '/')

    class Watched(type(os.environ)):
        def __getitem__(self, key):
            if asked_by_submission():
                report(ENV, 'read %s' % key)
            return super().__getitem__(key)

        def __iter__(self):
            if asked_by_submission():
                report(ENV, 'listed the environment')
            return super().__iter__()

    env = os.environ
    os.environ = Watched(env._data, env.encodekey, env.decodekey, env.encodevalue, env.decodevalue)

    class WatchedDict(dict):
        def __getitem__(self, key):
            if asked_by_submission():
                report(ENV, 'read %s' % (key.decode('utf-8', 'replace') if isinstance(key, bytes) else key))
            return super().__getitem__(key)

        def get(self, key, default=None):
            return self[key] if key in self else default

        def __iter__(self):
            if asked_by_submission():
                report(ENV, 'listed the environment')
            return super().__iter__()

    posix.environ = WatchedDict(posix.environ)
    if hasattr(os, 'environb'):
        os.environb = Watched(env._data, os.environb.encodekey, os.environb.decodekey, os.environb.encodevalue,
                              os.environb.decodevalue)


def _watch_unaudited(report, root, me):
    """Two C functions CPython calls without an audit event: `_posixsubprocess.fork_exec` (what subprocess runs
    after its own event) and `signal.pidfd_send_signal` (a signal through a pidfd, `os.pidfd_open`). Each becomes
    a wrapper in its C module (and in `signal`, which copied it) that reports a call the submission's own code
    makes, then calls the original."""
    import _posixsubprocess
    import _signal
    getframe = sys._getframe
    fork_exec, send = _posixsubprocess.fork_exec, getattr(_signal, 'pidfd_send_signal', None)

    def own_caller():
        f = getframe(2)
        return f is not None and f.f_code.co_filename.startswith(root + '/')

    def pid_of(fd):
        try:
            with open('/proc/self/fdinfo/%d' % fd) as f:
                return next((int(line.split()[1]) for line in f if line.startswith('Pid:')), None)
        except (OSError, ValueError, TypeError, IndexError):
            return None

    def watched_fork_exec(*args):
        if own_caller():
            report(SPAWN, '_posixsubprocess.fork_exec %s' % repr(args[0] if args else None)[:120])
        return fork_exec(*args)

    def watched_send(pidfd, sig, *rest):
        pid = pid_of(pidfd)
        if pid != me:
            report(SIGNAL, 'signal.pidfd_send_signal(%r, %r)' % (pid, sig))
        return send(pidfd, sig, *rest)

    _posixsubprocess.fork_exec = watched_fork_exec
    if send is not None:
        _signal.pidfd_send_signal = watched_send
        if 'signal' in sys.modules:
            sys.modules['signal'].pidfd_send_signal = watched_send
