# The test process's view of the submission: a child process it starts, talks to in plain data, times in
# the child's own time, and kills and starts again when a test's budget runs out or the child dies. The
# submission's modules appear here as proxy modules; its functions as stubs, its classes as mirrored
# classes whose instances are proxies. A value the submission returns is either plain data rebuilt here,
# with the builtin types' own equality, or a proxy whose equality with plain data is never the
# submission's to decide.
import builtins
import importlib.abc
import importlib.machinery
import os
import select
import signal
import subprocess
import sys
import types

import attempts
import handover
import owntime
from rpc import Endpoint, Remote
from spare import JOB_ENV
from wire import ChannelBroken, EncodeError, Pipe, WireError

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIRM_S = 0.1


def read_available(fd, limit=None):
    """What a non-blocking pipe holds now (about `limit` bytes at most, or all of it), without waiting."""
    chunks, size = [], 0
    while limit is None or size < limit:
        try:
            chunk = os.read(fd, 65536)
        except (BlockingIOError, OSError):
            break
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b''.join(chunks)


class SubmissionStopped(BaseException):
    """The running test's submission process was stopped (its time, memory or life ended). A BaseException:
    no `except Exception` or `pytest.raises(Exception)` in a test can take it for the submission's answer."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class NotHandedOver(BaseException):
    """A request that never reached the submission's process: what this test would send cannot cross (a
    value of its own the wire cannot carry, or an object of a process an earlier test stopped). The harness's
    limit, not the submission's doing: that test fails saying so, nothing is flagged (red-team F13). A
    BaseException, so no `except Exception` or `pytest.raises(Exception)` takes it for the submission's answer."""


class StaleObject(NotHandedOver):
    """An object of a submission process that an earlier test's stop ended (held by a module fixture, say)."""


class AnswerRefused(BaseException):
    """An answer of the submission's a test may not use: it decided an operation that had a test's plain value
    as operand, which may be the expected one (red-team F10). A BaseException, so a `pytest.raises(TypeError)`
    cannot take the refusal for the TypeError a test expected."""


class OutputLimit(BaseException):
    """The submission printed more than the job allows during one request."""


class Budget:
    """A test's time in the submission's processes, in their own time (owntime.py), and what is left of it."""

    def __init__(self, ms):
        self.ms = ms
        self.used = 0.0

    def reset(self, ms):
        self.ms = ms
        self.used = 0.0


class Submission:
    def __init__(self, root, memory_bytes, output_cap, budget_ms, events, coverage=False, spare=None):
        self.root = root
        self.spare = spare  # the first process, forked ahead (spare.py), under the fork server
        self.coverage = coverage  # a rubric audit's reference run: the submission process traces its lines
        self.memory = memory_bytes
        self.output_cap = output_cap
        self.budget = Budget(budget_ms)
        self.events = events  # list of (code, detail) the harness reports
        self.proc = None
        self.ep = None
        self.generation = 0
        self.stopped = None  # (status, message) once this test's process was stopped
        self.test = None  # the running test's node id
        self.ended = {}  # generation -> (test, status) of the stop that ended that process
        self.mirrors = {}
        # Sends the notes gathered so far to the grader (the plugin's flush_events): an attempt is reported as it
        # happens, so a job stopped from outside (its own limit, a test's from the grader) keeps its evidence.
        self.announce = lambda: None
        owntime.become_subreaper()

    # -- the process
    def start(self):
        if self.stopped is not None:
            raise SubmissionStopped(*self.stopped)
        spare, self.spare = self.spare, None
        if spare is not None and spare.go(self.root, self.memory, self.output_cap, self.coverage):
            self.proc = spare
            from_child_r, to_child_w, attempts_r, out_r, err_r = spare.ends
        else:
            from_child_r, to_child_w, attempts_r, out_r, err_r = self.spawn()
        self.mirrors_fds = (out_r, err_r)
        self.attempts = (attempts_r, [b''])
        self.attempts_open = True  # until the pipe's writers are gone
        self.generation += 1
        self.ep = Endpoint(Pipe(from_child_r, to_child_w), self.serve, self.proxy, self.wait)
        self.ep.describe = describe_own
        self.ep.exception_from = self.exception_from
        self.ep.on_reply = self.on_reply
        self.ep.reference_of = self.reference_of
        # A stop of the submission's process inside a callback ends the test, never answers the submission.
        self.ep.passthrough = (SubmissionStopped,)
        # A path crosses as its string (what open() needs); a Path object's methods would run file I/O here.
        handle = self.ep.export

        def export(v):
            if isinstance(v, os.PathLike) and not isinstance(v, Remote):
                return self.ep.enc.encode(os.fspath(v))
            return handle(v)

        self.ep.export = self.ep.enc.export = export
        self.fds = (from_child_r, to_child_w)

    def spawn(self):
        """A fresh interpreter running student.py (the default path, and any process after the first)."""
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        attempts_r, attempts_w = os.pipe()  # attempts.py's lines, read only here
        # What it prints, mirrored as printed (student.py Capture): read when it is stopped mid-request, else dropped.
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        for fd in (attempts_r, out_r, err_r):
            os.set_blocking(fd, False)
        self.proc = subprocess.Popen(
            [sys.executable, '-I', '-B', os.path.join(HERE, 'student.py'), self.root, str(to_child_r), str(from_child_w),
             str(self.memory), str(self.output_cap), str(attempts_w)] + (['coverage'] if self.coverage else []),
            pass_fds=(to_child_r, from_child_w, attempts_w), stdin=subprocess.DEVNULL, stdout=out_w,
            stderr=err_w, cwd=self.root, env=dict(JOB_ENV), start_new_session=True)
        for fd in (to_child_r, from_child_w, attempts_w, out_w, err_w):
            os.close(fd)
        return from_child_r, to_child_w, attempts_r, out_r, err_r

    def kill(self):
        if self.proc is None:
            if self.spare is not None:  # never needed
                self.spare.discard()
                self.spare = None
            return None
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        code = self.proc.wait()
        owntime.kill_descendants()
        self.drain_attempts()
        os.close(self.attempts[0])
        # What the request it was stopped in had printed (a finished request's output came with its reply).
        out, err = (self.drain_mirror(fd) for fd in self.mirrors_fds)
        for fd in self.mirrors_fds:
            os.close(fd)
        if out:
            sys.stdout.write(out)
        if err:
            sys.stderr.write(err)
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.proc = None
        self.ep = None
        return code

    def new_test(self, budget_ms, test=None):
        """Each test starts with its full budget; a process stopped by the previous test is started afresh."""
        self.budget.reset(budget_ms)
        self.stopped = None
        self.test = test

    def stop(self, status, message):
        self.kill()
        self.ended.setdefault(self.generation, (self.test, status))
        self.stopped = (status, message)
        raise SubmissionStopped(status, message)

    def died(self):
        """Its channel broke: how the process ended is read before this process kills it, so a SIGKILL seen
        here was not ours (the kernel's OOM killer sends one); a process that lives on without its channel
        is killed and said to have closed it."""
        if self.proc is None:
            return self.stop(*(self.stopped or ('failed', "the submission's process was stopped during this test")))
        try:
            code = self.proc.wait(timeout=CONFIRM_S * 5)
        except subprocess.TimeoutExpired:
            code = None
        self.kill()
        if code == -signal.SIGKILL:
            self.events.append(('memory_limit', "the submission's process was killed by SIGKILL (memory?) during this test"))
            return self.stop('failed', "the submission's process was killed during this test (out of memory?)")
        if code is None:
            return self.stop('failed', "the submission's process closed its channel to the tests during this test")
        return self.stop('failed', "the submission's process ended during this test (exit code %s)" % code)

    # -- timing: the budget counts the submission's own time, never time the machine kept it waiting (owntime.py)
    def wait(self):
        """Blocks until the submission answers, or stops it once the test's budget is provably spent. Samples
        at least every CONFIRM_S, so a child that lives a little while is seen (red-team F6, F12)."""
        fd, notes = self.fds[0], self.attempts[0]
        clock = owntime.OwnTime()
        upper = 0.0
        while True:
            left = self.budget.ms - self.budget.used
            try:
                ready, _, _ = select.select([fd, notes] if self.attempts_open else [fd], [], [],
                                            CONFIRM_S if left <= upper else min((left - upper) / 1000, CONFIRM_S))
            except (OSError, ValueError) as e:
                raise ChannelBroken('waiting on the pipe failed: %s' % e) from None
            if notes in ready:
                self.attempts_open = bool(self.drain_attempts())  # readable and empty: no writer is left
                self.announce()
            upper, lower = clock.sample()
            if fd in ready:
                self.budget.used += max(upper, 0)
                return
            if lower >= left:
                self.budget.used += upper
                self.stop('timeout', 'Exceeded timeout of %d ms for a test (counted in the submission\'s own time).' % self.budget.ms)

    # -- requests to the submission
    def request(self, op, target, name=None, args=(), kwargs=None):
        if self.ep is None:
            self.start()
        # Only the pipe raises ChannelBroken; an OSError or EOFError the submission raised is its answer and
        # passes through (red-team F4: it was taken for the process dying, and the process was killed).
        try:
            return self.ep.request(op, target, name, args, kwargs)
        except ChannelBroken:
            return self.died()
        except EncodeError as e:
            # Found before sending: the channel is intact and the submission was never asked.
            raise NotHandedOver("this test's value cannot be handed to the submission's process: %s "
                                '(values cross as plain data, copied)' % e) from None
        except WireError as e:
            self.events.append(('tampering.protocol', "the submission's process broke the protocol: %s" % e))
            return self.stop('failed', "the submission's process broke the protocol: %s" % e)

    def reference_of(self, v):
        target = target_of(v)
        if target is None:
            return None
        key = target._key
        if key[0] == 'M':
            return {'M': [key[1], key[2], None, None]}
        if key[1] != self.generation:
            test, status = self.ended.get(key[1], ('an earlier test', 'stopped'))
            raise StaleObject("this object belonged to the submission's process that %s stopped (%s); a new process "
                              'answers the tests since, and the object did not survive it (a module or session fixture, or '
                              'a test-module global, held it)' % (test, status))
        return {'Y': key[2]}

    def import_module(self, name):
        return self.request('import', None, name)

    def drain_attempts(self):
        """What the submission attempted so far (attempts.py), as notes. A line it forged itself can only
        accuse itself, so lines are checked for shape, not origin."""
        fd, pending = self.attempts
        got = read_available(fd)
        pending[0] += got
        *lines, pending[0] = pending[0].split(b'\n')
        for line in lines[:256]:
            code, _, detail = line.decode('utf-8', 'replace').partition('\t')
            if code in ATTEMPT_CODES and detail:
                note(self.events, code, detail[:200])
        return got

    @staticmethod
    def drain_mirror(fd, limit=65536):
        """What a mirror pipe holds (student.py Capture), up to `limit` bytes, as text."""
        return read_available(fd, limit)[:limit].decode('utf-8', 'replace')

    def on_reply(self, msg):
        self.drain_attempts()
        for fd in self.mirrors_fds:  # the reply carries this output itself
            self.drain_mirror(fd)
        out = msg.get('o')
        if type(out) is list and len(out) == 3:
            if type(out[0]) is str:
                sys.stdout.write(out[0])
            if type(out[1]) is str:
                sys.stderr.write(out[1])
            if out[2] is True:
                self.events.append(('output_limit', 'the submission printed more than %d bytes in one call' % self.output_cap))
                raise OutputLimit('the submission printed more than %d bytes in one call' % self.output_cap)

    def exception_from(self, d):
        if type(d) is not dict:
            raise WireError('a malformed exception')
        c, text = d.get('c'), d.get('s') if type(d.get('s')) is str else ''
        try:
            args = [self.ep.dec.decode(a) for a in d.get('a') or []]
        except WireError:
            args = [text]
        if type(c) is dict and 'b' in c:
            cls = getattr(builtins, c['b'], None) if type(c['b']) is str else None
            if not (isinstance(cls, type) and issubclass(cls, BaseException)):
                raise WireError('an exception of an unknown builtin class')
            # KeyboardInterrupt, GeneratorExit, BaseExceptionGroup would end pytest's session or escape it.
            if not issubclass(cls, Exception) and cls is not SystemExit:
                cls = RuntimeError
                args = ['%s raised by the submission' % c['b']]
            if cls is SystemExit:
                self.events.append(('process_exit_called', 'the submission called sys.exit(%s)' % (args[0] if args else '')))
        else:
            # Only a class mirrored from the submission: never one of this process's own (pytest's Skipped or
            # Exit, SubmissionStopped) that a reference could name.
            cls = self.ep.dec.decode(c)
            if not (isinstance(cls, type) and issubclass(cls, Exception) and target_of(cls) is not None):
                raise WireError('an exception that is not an exception class of the submission')
        e = _make_exception(cls, args, text)
        attrs = d.get('d')
        if target_of(cls) is not None and type(attrs) is dict:
            for k, v in list(attrs.items())[:32]:
                # Public names only, and none the class already answers (`with_traceback`, `args`): data, not behaviour.
                if type(k) is str and k.isidentifier() and not k.startswith('_') and not hasattr(cls, k):
                    e.__dict__[k] = self.ep.dec.decode(v)
        return e

    # -- what the submission may ask of this process: calls and protocol methods of what the tests handed
    # over, and the attributes handover.py allows; never an import, never a dunder attribute. A refusal is an
    # AttributeError in the submission (its test fails as it would) and a note in the report.
    def serve(self, op, target, name, args, kwargs):
        if op == 'call' and callable(target):
            return target(*args, **kwargs)
        if op == 'dunder' and name in SAFE_DUNDERS:
            return SAFE_DUNDERS[name](target, *args)
        try:
            if op == 'get':
                return handover.attribute(target, name)
            raise handover.Refused('%s %s of a %s' % (op, name, type(target).__name__))
        except handover.Refused as e:
            note(self.events, 'sandbox.refused_request', 'the submission asked the test process for %s; refused: '
                 'an object a test hands over can be called, not used for what its library can do here' % e)
            raise AttributeError('the test process does not hand over %s' % e) from None

    def proxy(self, tag, ref):
        if type(ref) is not list:
            raise WireError('a malformed reference')
        if tag == 'M':
            if len(ref) != 4 or type(ref[0]) is not str or type(ref[1]) is not str:
                raise WireError('a malformed module reference')
            return self.make(('M', ref[0], ref[1]), ref[2], ref[3])
        if len(ref) != 3 or type(ref[0]) is not int:
            raise WireError('a malformed reference')
        return self.make(('H', self.generation, ref[0]), ref[1], ref[2])

    def make(self, key, kind, info):
        if key in self.mirrors:
            return self.mirrors[key]
        if kind == 'cls':
            made = self.mirror_class(key, info)
        elif kind == 'fn':
            made = make_function(self, key, info)
        elif kind == 'it' and type(info) is dict and info.get('g') is True:
            made = make_generator(self, key, info)
        else:
            cls = RemoteIterator if kind == 'it' else RemoteObject
            if type(info) is dict and info.get('c') is not None:
                mirrored = self.ep.dec.decode(info['c'])
                if isinstance(mirrored, type) and issubclass(mirrored, RemoteObject) and kind != 'it':
                    cls = mirrored
            made = cls.__new__(cls)
            _bind(made, self, key)
        # Path references outlive a restart; handles die with their process, so only paths are cached long.
        self.mirrors[key] = made
        return made

    def mirror_class(self, key, info):
        if type(info) is not dict or type(info.get('n')) is not str:
            raise WireError('a malformed class')
        bases = []
        for b in info.get('bases') or []:
            if type(b) is dict and 'b' in b:
                base = getattr(builtins, b['b'], None) if type(b['b']) is str else None
                if isinstance(base, type) and issubclass(base, BaseException):
                    # A KeyboardInterrupt or SystemExit subclass would end pytest's session (red-team F5).
                    bases.append(base if issubclass(base, Exception) else Exception)
            else:
                base = self.ep.dec.decode(b)
                if isinstance(base, type) and target_of(base) is not None and (issubclass(base, RemoteObject) or issubclass(base, Exception)):
                    bases.append(base)
        if info.get('e'):
            bases = list(dict.fromkeys(b for b in bases if issubclass(b, BaseException)))
            bases = [b for b in bases if b is not Exception or len(bases) == 1] or [Exception]
            ns = {'__module__': info.get('m') if type(info.get('m')) is str else '?', '__str__': _mirrored_exception_str}
            std = stdlib_base(info) if info.get('std') is True else None
            try:
                cls = type(info['n'], tuple([std] + [b for b in bases if not issubclass(std, b)]) if std else tuple(bases), ns)
            except TypeError:  # a layout the two bases cannot share: the mirror keeps its builtin bases
                cls = type(info['n'], tuple(bases), ns)
        else:
            bases = [b for b in bases if issubclass(b, RemoteObject)] or [RemoteCallable if info.get('call') else RemoteObject]
            cls = RemoteClass(info['n'], tuple(bases), {'__module__': info.get('m') if type(info.get('m')) is str else '?'})
        cls.__qualname__ = info.get('q') if type(info.get('q')) is str else info['n']
        type.__setattr__(cls, '_evigrade_target', _Target(self, key))
        return cls


def stdlib_base(info):
    """The test process's own standard library exception class the submission's one names (None if none).

    Only a module the test process has already imported (nothing is imported on the submission's word), only a
    standard library one, and only an `Exception`: what pytest treats as an outcome (unittest's SkipTest) is
    never one (nor bdb's BdbQuit). The submission could raise the real class in its own process anyway, so naming it gains nothing."""
    m, q = info.get('m'), info.get('q')
    if type(m) is not str or type(q) is not str or m.split('.')[0] not in sys.stdlib_module_names:
        return None
    obj = sys.modules.get(m)
    for part in q.split('.'):
        obj = obj.__dict__.get(part) if isinstance(obj, (types.ModuleType, type)) else None
    if not (isinstance(obj, type) and issubclass(obj, Exception)) or target_of(obj) is not None:
        return None
    for module, name in (('unittest', 'SkipTest'), ('bdb', 'BdbQuit')):  # pytest's control flow, not an error
        control = getattr(sys.modules.get(module), name, None)
        if isinstance(control, type) and issubclass(obj, control):
            return None
    return obj


def _mirrored_exception_str(self):
    return self.__dict__.get('_evigrade_str', BaseException.__str__(self))


def _make_exception(cls, args, text):
    try:
        e = cls(*args)
    except Exception:
        e = cls.__new__(cls)
        e.args = tuple(args)
    if getattr(cls, '_evigrade_target', None) is not None:
        e.__dict__['_evigrade_str'] = text
    return e


class _Target(Remote):
    """What a request names: an object of the submission, by path (survives a restart) or by handle."""

    __slots__ = ('_sub', '_key')

    def __init__(self, sub, key):
        object.__setattr__(self, '_sub', sub)
        object.__setattr__(self, '_key', key)


def target_of(v):
    """The submission's object a proxy, stub or mirrored class stands for (None for the tests' own objects)."""
    if isinstance(v, _Target):
        return v
    if isinstance(v, RemoteObject):
        return object.__getattribute__(v, '_evigrade_target')
    if isinstance(v, (type, types.FunctionType)):
        found = v.__dict__.get('_evigrade_target')
        return found if isinstance(found, _Target) else None
    return None


def _bind(obj, sub, key):
    object.__setattr__(obj, '_evigrade_target', _Target(sub, key))


def _call(obj, op, name=None, args=(), kwargs=None):
    target = object.__getattribute__(obj, '_evigrade_target') if not isinstance(obj, type) else type.__getattribute__(obj, '_evigrade_target')
    return target._sub.request(op, target, name, args, kwargs)


def describe_own(v):
    if callable(v):
        return 'fn', {'n': getattr(v, '__name__', '?') if isinstance(getattr(v, '__name__', None), str) else '?'}
    return 'obj', None


ATTEMPT_CODES = attempts.CODES


def note(events, code, detail):
    """A note for the report, once per code and detail (a loop of refused requests is one line)."""
    if (code, detail) not in events:
        events.append((code, detail))


def _note_equality(obj, other):
    target = object.__getattribute__(obj, '_evigrade_target')
    events = target._sub.events
    code = 'equality.submission_defined'
    if not any(c == code for c, _ in events):
        events.append((code, 'a test compared an object of the submission with plain data (%s); the submission\'s own comparison was not consulted, and the comparison failed' % type(other).__name__))


def _remote_dunder(name, coerce=None):
    def method(self, *args):
        value = _call(self, 'dunder', name, args)
        if coerce is not None and type(value) is not coerce:
            raise TypeError('%s returned %s, not %s' % (name, type(value).__name__, coerce.__name__))
        return value
    method.__name__ = name
    return method


def _comparison(name):
    def method(self, other):
        if isinstance(other, RemoteObject):
            return _call(self, 'dunder', name, (other,))
        _note_equality(self, other)
        return NotImplemented
    method.__name__ = name
    return method


# Arithmetic with a test's plain value goes to the submission (a Clock plus minutes), but that value may be
# the expected one (`abs(f(x) - expected) < eps`, red-team F10). So the answer must be another object of the
# submission, marked as having seen a test's value: it may be printed, indexed, read or compared with the
# submission's objects, never turned into a number or truth value (abs, round, float, bool…) a test compares.
OPERATORS = {'__add__': '+', '__sub__': '-', '__mul__': '*', '__truediv__': '/', '__floordiv__': '//', '__mod__': '%',
             '__pow__': '**', '__matmul__': '@', '__and__': '&', '__or__': '|', '__xor__': '^', '__lshift__': '<<',
             '__rshift__': '>>', '__radd__': '+', '__rsub__': '-', '__rmul__': '*', '__rtruediv__': '/',
             '__rfloordiv__': '//', '__rmod__': '%', '__rpow__': '**'}
SAW_PLAIN = '_evigrade_saw_plain'


def _saw_plain(v):
    return isinstance(v, RemoteObject) and object.__getattribute__(v, '__dict__').get(SAW_PLAIN, False)


def _refuse(obj, what, answer):
    note(object.__getattribute__(obj, '_evigrade_target')._sub.events, 'equality.submission_defined',
         "a test's plain value reached the submission as an operand (%s: %s); the submission's answer was not used, "
         'and the test failed' % (what, answer))
    raise AnswerRefused("the submission's answer to %s is not used (%s): an operation with a test's plain value as "
                        'operand (perhaps the expected value) must give another object of the submission, and what '
                        'comes of that object is never made a plain number a test compares' % (what, answer))


def _arithmetic(name):
    def method(self, other):
        value = _call(self, 'dunder', name, (other,))
        if isinstance(other, RemoteObject) and not _saw_plain(self) and not _saw_plain(other):
            return value
        if isinstance(value, RemoteObject):
            object.__getattribute__(value, '__dict__')[SAW_PLAIN] = True
            return value
        left, right = type(self).__name__, type(other).__name__
        if name.startswith('__r'):
            left, right = right, left
        _refuse(self, '`%s %s %s`' % (left, OPERATORS[name], right), 'it gave a plain %s' % type(value).__name__)
    method.__name__ = name
    return method


def _numeric(name, coerce=None):
    forward = _remote_dunder(name, coerce)

    def method(self, *args):
        if _saw_plain(self):
            _refuse(self, "%s() of an object it computed with a test's plain value" % name.strip('_'), 'refused before asking')
        return forward(self, *args)
    method.__name__ = name
    return method


class RemoteObject(Remote):
    """An object of the submission: every operation is asked of its process."""

    __slots__ = ('_evigrade_target', '__dict__', '__weakref__')

    def __getattr__(self, name):
        if name.startswith('__') or name.startswith('_pytest') or name == '_evigrade_target':
            raise AttributeError(name)
        return _call(self, 'get', name)

    def __setattr__(self, name, value):
        _call(self, 'set', name, (value,))

    def __delattr__(self, name):
        _call(self, 'del', name)

    __repr__ = _remote_dunder('__repr__', str)
    __str__ = _remote_dunder('__str__', str)
    __len__ = _remote_dunder('__len__', int)
    __hash__ = _remote_dunder('__hash__', int)
    __iter__ = _remote_dunder('__iter__')
    __reversed__ = _remote_dunder('__reversed__')
    __getitem__ = _remote_dunder('__getitem__')
    __setitem__ = _remote_dunder('__setitem__')
    __delitem__ = _remote_dunder('__delitem__')
    __contains__ = _remote_dunder('__contains__', bool)
    __eq__ = _comparison('__eq__')
    __ne__ = _comparison('__ne__')
    __lt__ = _comparison('__lt__')
    __le__ = _comparison('__le__')
    __gt__ = _comparison('__gt__')
    __ge__ = _comparison('__ge__')
    __enter__ = _remote_dunder('__enter__')
    __exit__ = _remote_dunder('__exit__')
    __neg__ = _numeric('__neg__')
    __pos__ = _numeric('__pos__')
    __abs__ = _numeric('__abs__')
    __invert__ = _numeric('__invert__')
    __int__ = _numeric('__int__', int)
    __float__ = _numeric('__float__', float)
    __index__ = _numeric('__index__', int)
    __round__ = _numeric('__round__')
    __bool__ = _numeric('__bool__', bool)


for _name in OPERATORS:
    setattr(RemoteObject, _name, _arithmetic(_name))


class RemoteCallable(RemoteObject):
    __slots__ = ()

    def __call__(self, *args, **kwargs):
        return _call(self, 'call', None, args, kwargs)


class RemoteIterator(RemoteObject):
    __slots__ = ()

    def __iter__(self):
        return self

    def __next__(self):
        return _call(self, 'dunder', '__next__')


class RemoteClass(type):
    """The metaclass of mirrored classes: calling one constructs the object in the submission's process."""

    def __call__(cls, *args, **kwargs):
        return type.__getattribute__(cls, '_evigrade_target')._sub.request('call', type.__getattribute__(cls, '_evigrade_target'), None, args, kwargs)

    def __getattr__(cls, name):
        if name.startswith('__') or name.startswith('_pytest') or name == '_evigrade_target':
            raise AttributeError(name)
        return _call(cls, 'get', name)


def make_function(sub, key, info):
    target = _Target(sub, key)
    name = info.get('n') if type(info) is dict and type(info.get('n')) is str else 'function'

    def stub(*args, **kwargs):
        return sub.request('call', target, None, args, kwargs)

    stub.__name__ = name
    stub.__qualname__ = info.get('q') if type(info) is dict and type(info.get('q')) is str else name
    stub._evigrade_target = target
    return stub


def make_generator(sub, key, info):
    """The submission's generator, as a generator here (a test may check `isinstance(g, types.GeneratorType)`):
    each value is pulled from its process; its name is the submission's function's."""
    remote = RemoteIterator.__new__(RemoteIterator)
    _bind(remote, sub, key)

    def pull(source):
        for value in source:
            yield value

    name = info.get('n') if type(info.get('n')) is str else 'generator'
    qualname = info.get('q') if type(info.get('q')) is str else name
    code = pull.__code__.replace(co_name=name, co_qualname=qualname)
    return types.FunctionType(code, pull.__globals__, name)(remote)


# What the submission may ask of the tests' objects (a callback's protocol methods).
SAFE_DUNDERS = {
    '__iter__': iter, '__next__': next, '__len__': len, '__getitem__': lambda o, k: o[k],
    '__contains__': lambda o, k: k in o, '__repr__': repr, '__str__': str, '__bool__': bool,
}


class StudentFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports of the submission's modules, in the test process, become proxy modules."""

    def __init__(self, names, load, root):
        self.names = names
        self.load = load  # load(module_name) -> description, or raises
        self.root = root

    def find_spec(self, fullname, path, target=None):
        if fullname.split('.')[0] not in self.names:
            return None
        # A package only if it is a directory of the submission: `from leap import missing` must then fail as
        # Python words it ("cannot import name"), not look for a submodule.
        package = os.path.isdir(os.path.join(self.root, *fullname.split('.')))
        return importlib.machinery.ModuleSpec(fullname, self, is_package=package)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        self.load(module)


class SubmissionLoadError(ImportError):
    """The submission's module did not import (its syntax error, a missing module, an error at its top level): the
    student's error, which plugin.py reports once, at the place in the submission's files its process named."""

    def __init__(self, failed):
        info = failed if type(failed) is dict else {}
        self.file = info.get('file') if type(info.get('file')) is str else None
        self.line = info.get('line') if type(info.get('line')) is int else None
        self.text = info.get('message') if type(info.get('message')) is str else 'the submission did not import'
        super().__init__(self.text)


def fill_module(sub, module, root):
    """The submission's module, as its process describes it after importing it."""
    desc = sub.import_module(module.__name__)
    if type(desc) is dict and 'failed' in desc:
        raise SubmissionLoadError(desc['failed'])
    if type(desc) is not dict or type(desc.get('names')) is not list:
        raise ImportError('the submission process described %s wrongly' % module.__name__)
    base = os.path.join(root, *module.__name__.split('.'))
    package = os.path.isdir(base)
    module.__class__ = SubmissionModule
    module.__file__ = os.path.join(base, '__init__.py') if package else base + '.py'
    if package:
        module.__path__ = []
    declared = None
    for pair in desc['names']:
        if type(pair) is list and len(pair) == 2 and type(pair[0]) is str:
            if pair[0] == '__all__':
                declared = pair[1]
            else:
                setattr(module, pair[0], pair[1])
    own = [n for n in desc.get('own') or [] if type(n) is str and not n.startswith('_') and n in module.__dict__]
    module.__dict__['__evigrade_star__'] = (own, declared, sub.events)
    return module


# What a star import never binds in a test module (red-team F1, F1b): Python's builtins and module names,
# and the names pytest reads from a test module's namespace (collects as tests, calls as setup or hooks,
# applies as marks). Nor any name the test module already has.
PYTEST_READS = frozenset(('setup', 'teardown', 'setup_module', 'teardown_module', 'setup_function', 'teardown_function',
                          'setUpModule', 'tearDownModule', 'pytestmark', 'pytest_plugins'))
PYTEST_PREFIXES = ('test', 'Test', 'pytest')
NOT_STDLIB = frozenset(('pytest', '_pytest', 'pluggy', 'py'))


class SubmissionModule(types.ModuleType):
    """A submission's module in the test process. Its __all__ is worked out at each star import, against the
    importing module's globals at that moment: only the submission's own public definitions (its own __all__
    can narrow them, never add), without the names above; the test module keeps its math, pytest, abs."""

    @property
    def __all__(self):
        own, declared, events = self.__dict__.get('__evigrade_star__') or ((), None, [])
        importer = sys._getframe(1)  # the module executing `from m import *` (the property runs in its frame)
        bound = importer.f_globals if importer.f_code.co_filename.startswith(handover.TESTS) else {}
        wanted = own if type(declared) not in (list, tuple) else [n for n in dict.fromkeys(declared) if type(n) is str and n in own]
        names, refused = [], []
        for n in wanted:
            if n in bound and bound[n] is self.__dict__.get(n):
                continue  # already this very object (`from m import f` before): nothing to bind
            if n in bound or n in vars(builtins) or n in sys.stdlib_module_names or n in NOT_STDLIB or n in PYTEST_READS or n.startswith(PYTEST_PREFIXES):
                refused.append(n)
            else:
                names.append(n)
        if refused:
            where = os.path.basename(importer.f_code.co_filename)
            note(events, 'sandbox.shadowing', '`from %s import *` in %s did not bind %s: a star import brings only the submission\'s own '
                 'definitions, never a name the test module already has, a builtin, a module name or a name pytest reads from a '
                 'test module (a test that wants one imports it by name)' % (self.__name__, where, ', '.join(sorted(refused))))
        return names

