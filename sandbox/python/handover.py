# What the submission's process may ask of the objects a test hands it. A handed-over object is a callback
# or a value, never a capability of the test process: this process can open any file, its own
# /proc/self/mem included (red-team F3), and holds the tests' Mocks (F2). So the submission may call what it
# was handed and use a few protocol methods (host.SAFE_DUNDERS), and it reads an attribute only where that
# runs no library code of this process on its behalf:
#   - plain data found without running a descriptor (inspect.getattr_static);
#   - methods, properties and stored attributes of classes the hidden tests define, and what a test stored
#     in a SimpleNamespace (test doubles: their code is the test author's);
#   - a Mock's children (`notify.send(...)`), never its configuration or assertions, and nothing of a Mock
#     that wraps a real object;
#   - the named methods of a few stdlib types that only act on the object itself (SAFE_METHODS).
# Paths never cross as objects: an os.PathLike goes over as its os.fspath string (host.Submission.start).
import inspect
import io
import os
import random
import sys
import types

from wire import is_plain

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tests') + os.sep

_IO = ('read', 'readline', 'readlines', 'write', 'writelines', 'seek', 'tell', 'flush', 'close', 'closed',
       'readable', 'writable', 'seekable', 'truncate')
# By base class, so a subclass (pytest's CaptureIO is a TextIOWrapper) counts too. An open file's own data
# methods act on the file the test opened; nothing here opens another (no `buffer`, `raw`, `detach`).
SAFE_METHODS = {
    io.StringIO: frozenset(_IO + ('getvalue',)),
    io.BytesIO: frozenset(_IO + ('getvalue', 'read1', 'readinto')),
    io.TextIOWrapper: frozenset(_IO + ('name', 'mode', 'encoding', 'newlines')),
    io.BufferedReader: frozenset(_IO + ('name', 'mode', 'peek', 'read1', 'readinto')),
    io.BufferedWriter: frozenset(_IO + ('name', 'mode')),
    io.BufferedRandom: frozenset(_IO + ('name', 'mode', 'peek', 'read1', 'readinto')),
    random.Random: frozenset(('random', 'randint', 'randrange', 'choice', 'choices', 'sample', 'uniform', 'gauss',
                              'normalvariate', 'getrandbits', 'randbytes', 'triangular', 'expovariate')),
}
MOCK_ASSERT = ('assert', 'assret', 'asert', 'aseert', 'assrt')
_MOCK_API = []


class Refused(Exception):
    """An attribute the test process does not hand over."""


def attribute(target, name):
    """getattr(target, name) if the policy above allows it; else Refused."""
    if type(name) is not str or name.startswith('_'):
        raise Refused('%s of a %s' % (name, _kind(target)))
    mock = sys.modules.get('unittest.mock')  # not imported here: a Mock exists only if the tests imported it (15 ms)
    if mock is not None and isinstance(target, mock.NonCallableMock):
        return _mock_child(mock, target, name)
    try:
        raw = inspect.getattr_static(target, name)
    except AttributeError:
        # A test double that answers through its own __getattr__ (test code); otherwise Python's own error.
        if _from_tests(inspect.getattr_static(type(target), '__getattr__', None)):
            return getattr(target, name)
        raise AttributeError("'%s' object has no attribute '%s'" % (type(target).__name__, name)) from None
    stored = _stored(target, name, raw)
    if is_plain(raw) or (stored and (_from_tests(raw) or _test_built(target))):
        return raw  # read without running anything: plain data, or what the test stored on its own object
    if _from_tests(raw):
        # A method, property or classmethod of a test double: bound by its own descriptor, running test code only.
        owner = target if isinstance(target, type) else type(target)
        return raw.__get__(None if isinstance(target, type) else target, owner)
    for base, names in SAFE_METHODS.items():
        if isinstance(target, base) and name in names:
            return getattr(target, name)
    raise Refused('%s of a %s' % (name, _kind(target)))


def _mock_child(mock, m, name):
    # A Mock's own API: reading it would let the submission reconfigure it or answer for the test's assertions.
    if not _MOCK_API:
        _MOCK_API.append(frozenset(n for c in (mock.NonCallableMagicMock, mock.MagicMock, mock.AsyncMock) for n in dir(c) if not n.startswith('_')))
    if name in _MOCK_API[0] or name.startswith(MOCK_ASSERT):
        raise Refused("%s of a %s (its configuration and assertions are the test's)" % (name, _kind(m)))
    if object.__getattribute__(m, '__dict__').get('_mock_wraps') is not None:
        raise Refused('%s of a %s that wraps a real object' % (name, _kind(m)))
    return getattr(m, name)


def _from_tests(v):
    """A function (or the function of a property, staticmethod or classmethod) compiled from the hidden tests
    or the rubric's helper modules."""
    if isinstance(v, property):
        v = v.fget
    elif isinstance(v, (staticmethod, classmethod)):
        v = v.__func__
    return inspect.isfunction(v) and v.__code__.co_filename.startswith(TESTS)


def _test_built(target):
    """An object whose stored attributes are the test's own: an instance (or class) a hidden test module
    defines, or a SimpleNamespace the test filled. Never a class mirrored from the submission."""
    if type(target) is types.SimpleNamespace:
        return True
    cls = target if isinstance(target, type) else type(target)
    if '_evigrade_target' in cls.__dict__:
        return False
    module = sys.modules.get(cls.__dict__.get('__module__'))
    return isinstance(getattr(module, '__file__', None), str) and module.__file__.startswith(TESTS)


def _stored(target, name, raw):
    """In an instance's own __dict__ (the value itself, not a descriptor of its class)."""
    if isinstance(target, type):
        return False
    try:
        own = object.__getattribute__(target, '__dict__')
    except AttributeError:
        return False
    return name in own and own[name] is raw


def _kind(target):
    return type(target).__name__
