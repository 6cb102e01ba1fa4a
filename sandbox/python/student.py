# The submission's process. It imports the student's modules and does what the test process asks, over
# two pipes, in plain data. It holds nothing of the grader's: no hidden test source, no results channel,
# no key. Whatever the code here does to its own process (frames, gc, builtins, sys.exit, ctypes) stays in
# this process, which the test process can kill and start again at any time.
import io
import operator
import os
import resource
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from attempts import install as watch_attempts  # noqa: E402
from rpc import Endpoint, Remote  # noqa: E402
from wire import ChannelBroken, Pipe, WireError, is_plain  # noqa: E402

BINARY = {
    '__add__': operator.add, '__sub__': operator.sub, '__mul__': operator.mul, '__truediv__': operator.truediv,
    '__floordiv__': operator.floordiv, '__mod__': operator.mod, '__pow__': operator.pow, '__matmul__': operator.matmul,
    '__and__': operator.and_, '__or__': operator.or_, '__xor__': operator.xor, '__lshift__': operator.lshift,
    '__rshift__': operator.rshift, '__eq__': operator.eq, '__ne__': operator.ne, '__lt__': operator.lt,
    '__le__': operator.le, '__gt__': operator.gt, '__ge__': operator.ge, '__getitem__': operator.getitem,
    '__contains__': lambda a, b: b in a, '__delitem__': operator.delitem,
    '__radd__': lambda a, b: b + a, '__rsub__': lambda a, b: b - a, '__rmul__': lambda a, b: b * a,
    '__rtruediv__': lambda a, b: b / a, '__rfloordiv__': lambda a, b: b // a, '__rmod__': lambda a, b: b % a,
    '__rpow__': lambda a, b: b ** a,
}
UNARY = {
    '__len__': len, '__iter__': iter, '__next__': next, '__str__': str, '__repr__': repr, '__bool__': bool,
    '__hash__': hash, '__neg__': operator.neg, '__pos__': operator.pos, '__abs__': abs, '__invert__': operator.invert,
    '__int__': int, '__float__': float, '__index__': operator.index, '__enter__': lambda o: o.__enter__(),
    '__reversed__': reversed, '__round__': round,
}
PLAIN_BASES = (bool, int, float, complex, str, bytes, tuple, list, dict, set, frozenset)


# Characters of one request's output also written, as they are printed, to the process's own stdout or stderr (a pipe
# the test process reads only when this process is stopped: a test stopped at its limit keeps what it printed first).
MIRROR_CHARS = 4096


class Capture(io.TextIOBase):
    """What the submission prints during one request, up to a cap (beyond it, the rest is dropped and noted)."""

    def __init__(self, cap, mirror_fd=None):
        self.parts = []
        self.size = 0
        self.cap = cap
        self.over = False
        self.mirror_fd = mirror_fd
        self.mirrored = 0

    def mirror(self, s):
        room = MIRROR_CHARS - self.mirrored
        if self.mirror_fd is None or room <= 0 or not s:
            return
        self.mirrored += min(len(s), room)
        try:
            os.write(self.mirror_fd, s[:room].encode('utf-8', 'replace'))
        except OSError:  # a full or closed pipe: the reply still carries the output
            self.mirror_fd = None

    def writable(self):
        return True

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not %s' % type(s).__name__)
        room = self.cap - self.size
        if len(s) > room:
            self.over = True
        self.mirror(s[:max(room, 0)])
        self.parts.append(s[:max(room, 0)])
        self.size += min(len(s), max(room, 0))
        return len(s)

    def text(self):
        return ''.join(self.parts)


class Student:
    def __init__(self, pipe, output_cap):
        self.output_cap = output_cap
        self.paths = {}  # id(obj) -> (module, name): functions and classes defined at a module's top level
        self.ep = Endpoint(pipe, self.serve, self.proxy)
        self.ep.describe = self.describe
        self.ep.reflect_mutations = True
        self.ep.path_of = lambda v: (v.module, v.key) if isinstance(v, _Opaque) else self.paths.get(id(v))
        self.ep.exception_from = self.exception_from
        base_desc = self.ep.exception_desc
        self.ep.exception_desc = lambda e: self.exception_desc(base_desc, e)
        self.ep.reference_of = lambda v: {'Y': object.__getattribute__(v, '_id')} if isinstance(v, TestObject) else None
        base_perform = self.ep.perform
        self.ep.perform = lambda *a: self.captured(base_perform, *a)

    def captured(self, perform, *args):
        out, err = Capture(self.output_cap, 1), Capture(self.output_cap, 2)
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            reply = perform(*args)
        finally:
            sys.stdout, sys.stderr = saved
        if out.size or err.size or out.over or err.over:
            reply['o'] = [out.text(), err.text(), out.over or err.over]
        return reply

    # -- what the test process may ask (it is trusted: anything)
    def serve(self, op, target, name, args, kwargs):
        if op == 'import':
            return self.import_module(name)
        if op == 'coverage' and COVERAGE[0] is not None:
            return COVERAGE[0].report(ROOT[0])
        if op == 'call':
            return target(*args, **kwargs)
        if op == 'get':
            return getattr(target, name)
        if op == 'set':
            setattr(target, name, args[0])
            return None
        if op == 'del':
            delattr(target, name)
            return None
        if op == 'dunder':
            if name in UNARY and not args:
                return UNARY[name](target)
            if name in BINARY and len(args) == 1:
                return BINARY[name](target, args[0])
            if name == '__setitem__' and len(args) == 2:
                target[args[0]] = args[1]
                return None
            if name == '__exit__' and len(args) == 3:
                return target.__exit__(*args)
            if name == '__round__' and len(args) == 1:
                return round(target, args[0])  # round(x, ndigits); without ndigits it is a UNARY
        raise WireError('a request the submission process does not know: %s %s' % (op, name))

    def import_module(self, name):
        import importlib
        try:
            module = importlib.import_module(name)
        except Exception as e:  # the student's error: described once, where it happened (a SystemExit still crosses)
            return {'failed': load_failure(e)}
        names = []
        for key, value in list(vars(module).items()):
            if key.startswith('__') and key != '__all__':
                continue
            if isinstance(value, types.ModuleType):
                continue
            if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
                self.paths.setdefault(id(value), (name, key))
            names.append(key)
        described, own = [], []
        for key in names:
            value = vars(module)[key]
            # Its own definitions (what a star import may bring): not a function or class it imported.
            if not isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)) or getattr(value, '__module__', None) == name:
                own.append(key)
            if not (id(value) in self.paths or is_plain(value)):
                value = _Opaque(name, key)
            described.append([key, value])
        return {'file': getattr(module, '__file__', None), 'names': described, 'own': own}

    def describe(self, v):
        if isinstance(v, _Opaque):
            v = getattr(sys.modules[v.module], v.key)
        if isinstance(v, type):
            return 'cls', self.class_info(v)
        if callable(v) and isinstance(v, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.BuiltinMethodType)):
            return 'fn', {'n': getattr(v, '__name__', '?'), 'q': getattr(v, '__qualname__', '?')}
        if isinstance(v, types.GeneratorType):
            return 'it', {'g': True, 'n': v.__name__, 'q': v.__qualname__}
        if hasattr(type(v), '__next__'):
            return 'it', {'c': self.ep.enc.encode(type(v))}
        return 'obj', {'c': self.ep.enc.encode(type(v)), 'call': callable(v)}

    def class_info(self, cls):
        import builtins
        bases = []
        for b in cls.__bases__:
            if getattr(builtins, b.__name__, None) is b:
                bases.append({'b': b.__name__})
            else:
                bases.append(self.ep.enc.encode(b))
        info = {'n': cls.__name__, 'q': cls.__qualname__, 'm': cls.__module__, 'bases': bases,
                'e': issubclass(cls, BaseException), 'call': hasattr(cls, '__call__') and '__call__' in _own_dunders(cls)}
        if type(cls.__module__) is str and cls.__module__.split('.')[0] in sys.stdlib_module_names:
            # A standard library class (dataclasses.FrozenInstanceError, json.JSONDecodeError): the test process
            # may name the same class, and its mirror must be one (host.stdlib_base decides).
            info['std'] = True
        return info

    # -- objects of the test process: callables and iterables it handed over
    def proxy(self, tag, ref):
        if tag == 'M':
            import importlib
            if type(ref) is not list or len(ref) < 2 or type(ref[0]) is not str or type(ref[1]) is not str:
                raise WireError('a malformed module reference')
            return getattr(importlib.import_module(ref[0]), ref[1])
        if type(ref) is not list or len(ref) != 3 or type(ref[0]) is not int:
            raise WireError('a malformed reference')
        return TestObject(self.ep, ref[0])

    def exception_desc(self, base, e):
        """An exception's own public attributes cross with it (an error's `code`, a JSONDecodeError's `pos`), each
        as a value would: real exercise suites read them (`excinfo.value.code`), and plain pytest gives them."""
        d = base(e)
        attrs = {}
        try:
            own = vars(e) if hasattr(e, '__dict__') else {}
            for k, v in list(own.items())[:ATTRS_MAX]:
                if type(k) is str and k.isidentifier() and not k.startswith('_'):
                    try:
                        attrs[k] = self.ep.enc.encode(v)
                    except Exception:  # noqa: BLE001 - a value the wire cannot carry stays behind, as a return would fail
                        pass
        except Exception:  # noqa: BLE001 - the exception is still the answer without its attributes
            attrs = {}
        if attrs:
            d['d'] = attrs
        return d

    def exception_from(self, d):
        import builtins
        c = d.get('c') if type(d) is dict else None
        text = d.get('s') if type(d) is dict and type(d.get('s')) is str else 'an error in the test'
        cls = getattr(builtins, c['b'], None) if type(c) is dict and type(c.get('b')) is str else None
        if not (isinstance(cls, type) and issubclass(cls, Exception)):
            return RuntimeError(text)
        try:
            return cls(*[self.ep.dec.decode(a) for a in d.get('a') or []])
        except Exception:
            return cls(text)

    def export_plain(self, v):
        """Instances of the submission's subclasses of plain types cross as the plain value they hold."""
        for base in type(v).__mro__:
            if base in PLAIN_BASES:
                return _as_plain(base, v)
        return None


ATTRS_MAX = 32  # an exception's attributes that cross with it
ROOT = ['/']  # the submission's folder (main sets it)
COVERAGE = [None]  # a rubric audit's reference run: the line tracer (main installs it)


class LineTracer:
    """The lines of the submission's files that ran (a rubric audit's reference run only, trusted code): line events
    of frames whose code comes from a file under the submission's folder; every other frame is not traced."""

    def __init__(self, root):
        self.prefix = root + '/'
        self.hits = {}

    def install(self):
        import threading
        sys.settrace(self.on_call)
        threading.settrace(self.on_call)

    def on_call(self, frame, event, arg):
        name = frame.f_code.co_filename
        if not name.startswith(self.prefix):
            return None
        lines = self.hits.setdefault(name, set())

        def on_line(frame, event, arg):
            if event == 'line':
                lines.add(frame.f_lineno)
            return on_line
        return on_line

    def report(self, root):
        """Per .py file under the folder: its lines that start a statement (line starts of its code objects, as
        the interpreter numbers them) and those that ran."""
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != '__pycache__')
            for n in sorted(names):
                if not n.endswith('.py'):
                    continue
                path = os.path.join(folder, n)
                executable = statement_lines(path)
                if executable is None:
                    continue
                hit = sorted(self.hits.get(path, set()) & executable)
                files.append({'file': path[len(root) + 1:], 'executable': sorted(executable), 'hit': hit, 'exact': True})
        return files


def statement_lines(path):
    import dis
    try:
        with open(path, encoding='utf-8') as f:
            code = compile(f.read(), path, 'exec')
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    lines, todo = set(), [code]
    while todo:
        c = todo.pop()
        lines.update(line for _, line in dis.findlinestarts(c) if line is not None and line > 0)
        todo.extend(k for k in c.co_consts if hasattr(k, 'co_code'))
    # A function's first line start is its `def` (RESUME); the def line itself runs in the enclosing code.
    return lines


def load_failure(e):
    """Why the submission's module did not import, and where in its own files: a SyntaxError's own file and line,
    else the innermost frame of the traceback inside the submission (never the importer's frames)."""
    import traceback
    root = ROOT[0] + '/'
    where = (None, None)
    if isinstance(e, SyntaxError) and isinstance(e.filename, str) and e.filename.startswith(root):
        where = (e.filename, e.lineno)
    else:
        for frame in traceback.extract_tb(e.__traceback__):
            if frame.filename.startswith(root):
                where = (frame.filename, frame.lineno)
    try:
        text = e.msg if isinstance(e, SyntaxError) and isinstance(e.msg, str) else str(e)
    except Exception:
        text = ''
    return {'file': where[0][len(root):] if where[0] else None, 'line': where[1] if type(where[1]) is int else None,
            'message': '%s: %s' % (type(e).__name__, text) if text else type(e).__name__}


def _as_plain(base, v):
    if base is int:
        return int.__int__(v)
    if base is float:
        return float.__float__(v)
    if base is complex:
        return complex(complex.__getattribute__(v, 'real'), complex.__getattribute__(v, 'imag'))
    if base is str:
        return str.__str__(v)
    if base is bytes:
        return bytes(memoryview(v))
    if base is dict:
        return {k: x for k, x in dict.items(v)}
    return base(base.__iter__(v))


def _own_dunders(cls):
    names = set()
    for k in cls.__mro__[:-1]:
        names.update(k.__dict__)
    return names


class _Opaque:
    """A module-level object: the test process sees a proxy it reaches by name (again after a restart)."""

    def __init__(self, module, key):
        self.module = module
        self.key = key


class TestObject(Remote):
    """A callable or iterable the test process handed to the submission."""

    __slots__ = ('_ep', '_id')

    def __init__(self, ep, ident):
        object.__setattr__(self, '_ep', ep)
        object.__setattr__(self, '_id', ident)

    def __call__(self, *args, **kwargs):
        return self._ep.request('call', self, args=args, kwargs=kwargs)

    def __getattr__(self, name):
        return self._ep.request('get', self, name)

    def __iter__(self):
        return self._ep.request('dunder', self, '__iter__')

    def __next__(self):
        return self._ep.request('dunder', self, '__next__')

    def __len__(self):
        return self._ep.request('dunder', self, '__len__')

    def __getitem__(self, key):
        return self._ep.request('dunder', self, '__getitem__', (key,))

    def __contains__(self, key):
        return self._ep.request('dunder', self, '__contains__', (key,))

    def __repr__(self):
        return self._ep.request('dunder', self, '__repr__')

    def __str__(self):
        return self._ep.request('dunder', self, '__str__')

    def __bool__(self):
        return self._ep.request('dunder', self, '__bool__')


def main():
    root, rfd, wfd, memory, output_cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    os.set_blocking(int(sys.argv[6]), False)  # a full pipe drops an attempt line rather than stopping the code
    for fd in (1, 2):  # the mirrors of its output (Capture): a full pipe drops the mirror, never stops the code
        try:
            os.set_blocking(fd, False)
        except OSError:
            pass
    watch_attempts(root, int(sys.argv[6]))
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    sys.path.insert(0, root)
    ROOT[0] = root
    if len(sys.argv) > 7 and sys.argv[7] == 'coverage':
        COVERAGE[0] = LineTracer(root)
        COVERAGE[0].install()
    sys.path.remove(HERE)
    sys.set_int_max_str_digits(0)
    student = Student(Pipe(rfd, wfd), output_cap)
    original_export = student.ep.export

    def export(v):
        if not isinstance(v, Remote) and not isinstance(v, type) and isinstance(v, PLAIN_BASES):
            plain = student.export_plain(v)
            if plain is not None and type(plain) is not type(v):
                return student.ep.enc.encode(plain)
        return original_export(v)

    student.ep.export = export
    student.ep.enc.export = export
    while True:
        try:
            msg = student.ep.pipe.receive()
        except ChannelBroken:
            os._exit(0)
        except WireError:
            os._exit(3)
        if type(msg) is not dict or 'q' not in msg:
            os._exit(3)
        try:
            student.ep.answer(msg)
        except (WireError, ChannelBroken):
            os._exit(3)


if __name__ == '__main__':
    main()
