# The wire between the trusted test process and the submission's process: plain data only.
#
# Values cross as JSON with tagged containers. Only builtin plain types (and a few stdlib value types) are
# rebuilt on the other side; everything else crosses as a handle, an id in the sender's table, and is seen
# by the receiver as a proxy. Nothing here ever calls code of the value it decodes: decoding builds new
# objects of known types from JSON, so a value cannot bring its own __eq__, __repr__ or __hash__ along.
import collections
import datetime
import decimal
import fractions
import json
import keyword
import math

MAX_DEPTH = 200
# H: an object of the sender's ([id, kind, info]); Y: an object of the receiver's, coming back (id);
# M: a name in one of the submission's modules ([module, name]), which a restarted process finds again.
REFERENCE_TAGS = ('H', 'Y', 'M')
MAX_MESSAGE = 64 * 1024 * 1024
MAX_DIGITS = 100_000


class WireError(Exception):
    """A message that is not what the protocol allows."""


class EncodeError(Exception):
    """This side's own value cannot be put on the wire (it contains itself, nests too deep, is too large).
    Not a WireError: the sender finds it before anything is sent, so the channel is intact and nobody broke
    the protocol; each side turns it into an answer or a failure of its own (red-team F13)."""


class ChannelBroken(Exception):
    """The pipe itself failed (the other side closed it, died, or a read or write failed). Only Pipe raises it,
    so a caller can tell a broken channel from an OSError or EOFError the other side's code raised and sent
    as its answer."""


# Stdlib value types rebuilt exactly (their class and value), so equality and repr are the stdlib's.
def _dec_decimal(v):
    return decimal.Decimal(v)


STDLIB = {
    'Decimal': (decimal.Decimal, str, _dec_decimal),
    'Fraction': (fractions.Fraction, lambda f: [str(f.numerator), str(f.denominator)], lambda v: fractions.Fraction(int(v[0]), int(v[1]))),
    'date': (datetime.date, lambda d: d.isoformat(), datetime.date.fromisoformat),
    'datetime': (datetime.datetime, lambda d: d.isoformat(), datetime.datetime.fromisoformat),
    'time': (datetime.time, lambda d: d.isoformat(), datetime.time.fromisoformat),
    'timedelta': (datetime.timedelta, lambda d: [d.days, d.seconds, d.microseconds], lambda v: datetime.timedelta(days=v[0], seconds=v[1], microseconds=v[2])),
}
STDLIB_BY_TYPE = {t: name for name, (t, _e, _d) in STDLIB.items()}

# Containers: tag → (exact type, rebuild from a list of decoded items)
CONTAINERS = {
    'L': list,
    'T': tuple,
    'S': set,
    'F': frozenset,
    'Q': collections.deque,
}
CONTAINER_TAG = {t: tag for tag, t in CONTAINERS.items()}
MAPPINGS = {'D': dict, 'O': collections.OrderedDict, 'C': collections.Counter}
MAPPING_TAG = {t: tag for tag, t in MAPPINGS.items()}


class Encoder:
    """Turns a value into JSON-able data; `export(value)` gives the reference ({tag: ...}) for what is not plain."""

    def __init__(self, export):
        self.export = export

    def encode(self, v, depth=0, seen=None):
        if depth > MAX_DEPTH:
            raise EncodeError('a value nested more than %d deep' % MAX_DEPTH)
        t = type(v)
        if v is None or t is bool or t is str:
            return v
        if t is int:
            if -(2 ** 53) < v < 2 ** 53:
                return v
            digits = str(v)
            # The receiver refuses more (a protocol breach there): an honest sender stops here instead.
            if len(digits) > MAX_DIGITS:
                raise EncodeError('an integer of more than %d digits' % MAX_DIGITS)
            return {'I': digits}
        if t is float:
            return v if math.isfinite(v) else {'R': repr(v)}
        if t is complex:
            return {'X': [self.encode(v.real, depth + 1), self.encode(v.imag, depth + 1)]}
        if t is bytes or t is bytearray:
            return {'B' if t is bytes else 'A': v.hex()}
        seen = seen if seen is not None else set()
        if t in CONTAINER_TAG or t in MAPPING_TAG or t is collections.defaultdict:
            if id(v) in seen:
                raise EncodeError('a value that contains itself')
            seen.add(id(v))
            try:
                if t in CONTAINER_TAG:
                    return {CONTAINER_TAG[t]: [self.encode(x, depth + 1, seen) for x in v]}
                items = [[self.encode(k, depth + 1, seen), self.encode(x, depth + 1, seen)] for k, x in v.items()]
                if t is collections.defaultdict:
                    factory = v.default_factory
                    name = factory.__name__ if factory in (list, dict, set, int, str, float, tuple) else None
                    return {'DD': [name, items]}
                return {MAPPING_TAG[t]: items}
            finally:
                seen.discard(id(v))
        if t in STDLIB_BY_TYPE:
            name = STDLIB_BY_TYPE[t]
            return {'V': [name, STDLIB[name][1](v)]}
        shape = namedtuple_shape(t)
        if shape is not None and tuple.__len__(v) == len(shape[1]):
            return {'N': [shape[0], list(shape[1]), [self.encode(tuple.__getitem__(v, i), depth + 1, seen) for i in range(tuple.__len__(v))]]}
        return self.export(v)


# A namedtuple (collections.namedtuple, typing.NamedTuple, or a class deriving from one) crosses as its name, field
# names and items; the receiver rebuilds it with collections.namedtuple, so `.x`, `_asdict()` and the repr work as the
# sender's did, and equality is a tuple's (no method of the sender's class crosses). Methods a subclass adds are not
# carried. Read through `type`'s own descriptors: no attribute lookup a class or its metaclass could answer.
_CLASS_MRO = type.__dict__['__mro__'].__get__
_CLASS_DICT = type.__dict__['__dict__'].__get__
_CLASS_NAME = type.__dict__['__name__'].__get__
MAX_FIELDS = 256


def _valid_names(name, fields):
    names = [name, *fields]
    return (len(fields) <= MAX_FIELDS and all(type(n) is str and n.isidentifier() and not keyword.iskeyword(n) for n in names)
            and not any(f.startswith('_') for f in fields) and len(set(fields)) == len(fields))


def namedtuple_shape(t):
    """(name, fields) of a namedtuple class, or None."""
    mro = _CLASS_MRO(t)
    if tuple not in mro:
        return None
    for k in mro:
        fields = _CLASS_DICT(k).get('_fields')
        if fields is not None:
            name = _CLASS_NAME(t)
            return (name, fields) if type(fields) is tuple and _valid_names(name, fields) else None
    return None


_REBUILT = {}


def rebuild_namedtuple(v, decode):
    """The receiver's namedtuple from [name, fields, items]: names checked, the class made by the standard library."""
    name, fields, items = _triple(v)
    if type(fields) is not list or not _valid_names(name, fields) or len(_list(items)) != len(fields):
        raise WireError('a malformed namedtuple')
    key = (name, tuple(fields))
    cls = _REBUILT.get(key)
    if cls is None:
        cls = collections.namedtuple(name, fields)
        if len(_REBUILT) < 1024:
            _REBUILT[key] = cls
    return cls._make(decode(x) for x in items)


class Decoder:
    """Rebuilds plain data; `resolve(tag, ref)` turns a reference into the receiver's object (a proxy or its own)."""

    def __init__(self, resolve):
        self.resolve = resolve

    def decode(self, d, depth=0):
        if depth > MAX_DEPTH:
            raise WireError('a value nested more than %d deep' % MAX_DEPTH)
        if d is None or type(d) in (bool, str, int, float):
            return d
        if type(d) is not dict or len(d) != 1:
            raise WireError('a malformed value')
        (tag, v), = d.items()
        if tag in CONTAINERS:
            return CONTAINERS[tag](self.decode(x, depth + 1) for x in _list(v))
        if tag in MAPPINGS:
            # Counter(pairs) would count the pairs: every mapping is built from a dict of its items.
            return MAPPINGS[tag](dict((self.decode(k, depth + 1), self.decode(x, depth + 1)) for k, x in (_pair(p) for p in _list(v))))
        if tag == 'DD':
            name, items = _pair(v)
            factories = {'list': list, 'dict': dict, 'set': set, 'int': int, 'str': str, 'float': float, 'tuple': tuple}
            return collections.defaultdict(factories.get(name), ((self.decode(k, depth + 1), self.decode(x, depth + 1)) for k, x in (_pair(p) for p in _list(v[1]))))
        if tag == 'I':
            if len(_str(v)) > MAX_DIGITS:
                raise WireError('an integer of more than %d digits' % MAX_DIGITS)
            return int(v)
        if tag == 'R':
            return float(_str(v))
        if tag == 'X':
            re, im = _pair(v)
            return complex(self.decode(re, depth + 1), self.decode(im, depth + 1))
        if tag == 'B':
            return bytes.fromhex(_str(v))
        if tag == 'A':
            return bytearray.fromhex(_str(v))
        if tag == 'N':
            return rebuild_namedtuple(v, lambda x: self.decode(x, depth + 1))
        if tag == 'V':
            name, value = _pair(v)
            if name not in STDLIB:
                raise WireError('an unknown value type')
            return STDLIB[name][2](value)
        if tag in REFERENCE_TAGS:
            return self.resolve(tag, v)
        raise WireError('an unknown tag')


def is_plain(v, depth=0):
    """Exactly builtin plain data all the way down: crosses as a copy, and reading it runs no code."""
    t = type(v)
    if v is None or t in (bool, int, float, complex, str, bytes):
        return True
    if depth > 50:
        return False
    if t in (list, tuple, set, frozenset):
        return all(is_plain(x, depth + 1) for x in v)
    if t is dict:
        return all(is_plain(k, depth + 1) and is_plain(x, depth + 1) for k, x in v.items())
    return False


def _list(v):
    if type(v) is not list:
        raise WireError('a malformed container')
    return v


def _triple(v):
    if type(v) is not list or len(v) != 3:
        raise WireError('a malformed triple')
    return v


def _pair(v):
    if type(v) is not list or len(v) != 2:
        raise WireError('a malformed pair')
    return v


def _str(v):
    if type(v) is not str:
        raise WireError('a malformed scalar')
    return v


def dumps(message):
    return json.dumps(message, separators=(',', ':'), ensure_ascii=True, allow_nan=False).encode('ascii')


def loads(raw):
    if len(raw) > MAX_MESSAGE:
        raise WireError('a message larger than %d bytes' % MAX_MESSAGE)
    try:
        return json.loads(raw.decode('ascii'))
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise WireError('a message that is not JSON: %s' % e) from None


class Pipe:
    """Length-prefixed messages over two file descriptors."""

    def __init__(self, rfd, wfd):
        self.rfd = rfd
        self.wfd = wfd

    def send(self, message):
        import os
        data = dumps(message)
        if len(data) > MAX_MESSAGE:
            raise EncodeError('a message larger than %d bytes' % MAX_MESSAGE)
        buf = len(data).to_bytes(8, 'big') + data
        view = memoryview(buf)
        while view:
            try:
                n = os.write(self.wfd, view)
            except OSError as e:
                raise ChannelBroken('writing to the pipe failed: %s' % e) from None
            view = view[n:]

    def read_exact(self, n):
        import os
        chunks = []
        while n > 0:
            try:
                chunk = os.read(self.rfd, min(n, 1 << 20))
            except OSError as e:
                raise ChannelBroken('reading from the pipe failed: %s' % e) from None
            if not chunk:
                raise ChannelBroken('the other side closed the pipe')
            chunks.append(chunk)
            n -= len(chunk)
        return b''.join(chunks)

    def receive(self):
        size = int.from_bytes(self.read_exact(8), 'big')
        if size > MAX_MESSAGE:
            raise WireError('a message larger than %d bytes' % MAX_MESSAGE)
        return loads(self.read_exact(size))
