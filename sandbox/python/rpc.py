# One side of the conversation between the test process and the submission's process.
#
# Each side asks the other to act on objects it holds (call, attribute, protocol method) and serves the
# other's requests while it waits, so a callback from the submission into a test's lambda works at any
# depth. What a side may be asked to do is that side's `serve` policy: the test process serves calls and
# a few protocol methods of the objects it handed over, and reads only attributes handover.py allows; it
# never runs an import or reaches a dunder attribute for the submission.
import collections

from wire import Decoder, EncodeError, Encoder, Pipe, WireError


class Remote:
    """Base of every proxy: an object of the other side, known by its id."""

    __slots__ = ()


class Endpoint:
    def __init__(self, pipe: Pipe, serve, proxy, wait=None):
        self.pipe = pipe
        self.serve = serve  # serve(op, target, name, args, kwargs) -> value (may raise)
        self.proxy = proxy  # proxy(tag, ref) -> the object for a reference of the other side's
        self.wait = wait or (lambda: None)  # called before each blocking read (budgets)
        self.exports = {}
        self.export_of = {}
        self.next_export = 1
        self.next_request = 1
        self.enc = Encoder(self.export)
        self.dec = Decoder(self.resolve)
        self.describe = lambda v: ('obj', None)
        # The reference for a proxy of the other side's object ({'Y': id} or {'M': path}), or None.
        self.reference_of = lambda v: None
        # The submission's side sends back what a call did to the lists, dicts and sets it was given.
        self.reflect_mutations = False
        self.path_of = lambda v: None
        # Exceptions that are this side's own stop, never an answer: they leave the request unanswered.
        self.passthrough = ()

    # -- references
    def export(self, v):
        ref = self.reference_of(v)
        if ref is not None:
            return ref
        path = self.path_of(v)
        if path is not None:
            kind, info = self.describe(v)
            return {'M': [path[0], path[1], kind, info]}
        key = id(v)
        if key not in self.export_of:
            self.export_of[key] = self.next_export
            self.exports[self.next_export] = v
            self.next_export += 1
        kind, info = self.describe(v)
        return {'H': [self.export_of[key], kind, info]}

    def resolve(self, tag, ref):
        if tag == 'Y':
            if type(ref) is not int or ref not in self.exports:
                raise WireError('a reference to an object that was never handed over')
            return self.exports[ref]
        return self.proxy(tag, ref)

    # -- asking
    def request(self, op, target, name=None, args=(), kwargs=None):
        rid = self.next_request
        self.next_request += 1
        self.pipe.send({
            'q': rid, 'op': op, 't': self.enc.encode(target), 'n': name,
            'a': [self.enc.encode(a) for a in args],
            'k': [[k, self.enc.encode(v)] for k, v in (kwargs or {}).items()],
        })
        while True:
            self.wait()
            msg = self.pipe.receive()
            if type(msg) is not dict:
                raise WireError('a message that is not an object')
            if 'q' in msg:
                self.answer(msg)
                continue
            if msg.get('r') != rid:
                raise WireError('an answer to a question never asked')
            self.on_reply(msg)
            if op == 'call' and type(msg.get('m')) is list:
                apply_mutations(args, msg['m'], self.dec)
            if 'e' in msg:
                raise self.exception_from(msg['e'])
            return self.dec.decode(msg.get('v'))

    def on_reply(self, msg):
        """Hook: the test process prints what the submission printed during the request."""

    # -- answering
    def answer(self, msg):
        rid = msg.get('q')
        op = msg.get('op')
        name = msg.get('n')
        if type(op) is not str or (name is not None and type(name) is not str):
            raise WireError('a malformed request')
        target = self.dec.decode(msg.get('t'))
        args = [self.dec.decode(a) for a in _list(msg.get('a'))]
        kwargs = {}
        for pair in _list(msg.get('k')):
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
                raise WireError('a malformed keyword argument')
            kwargs[pair[0]] = self.dec.decode(pair[1])
        reply = self.perform(rid, op, target, name, args, kwargs)
        if self.reflect_mutations and op == 'call':
            changed = self.mutated(args)
            if changed:
                reply['m'] = changed
        try:
            self.pipe.send(reply)
        except EncodeError as e:  # too large: nothing was sent, so the asker gets this as the answer
            self.pipe.send({'r': rid, 'e': self.exception_desc(TypeError('the value cannot be handed over: %s' % e))})

    def mutated(self, args):
        """The final contents of the mutable plain arguments of a call (the caller's copies are updated in place)."""
        out = []
        for i, a in enumerate(args):
            if type(a) in MUTABLE:
                try:
                    out.append([i, self.enc.encode(a)])
                except EncodeError:
                    pass
        return out

    def perform(self, rid, op, target, name, args, kwargs):
        try:
            value = self.serve(op, target, name, args, kwargs)
            return {'r': rid, 'v': self.enc.encode(value)}
        except (EncodeError, WireError) as e:
            return {'r': rid, 'e': self.exception_desc(TypeError('the value cannot be handed over: %s' % e))}
        except self.passthrough:
            raise
        except BaseException as e:  # noqa: B036 - whatever the code raised is the answer
            return {'r': rid, 'e': self.exception_desc(e)}

    def exception_desc(self, e):
        cls = type(e)
        import builtins
        if getattr(builtins, cls.__name__, None) is cls:
            c = {'b': cls.__name__}
        else:
            c = self.enc.encode(cls)
        try:
            args = [self.enc.encode(a) for a in e.args]
        except EncodeError:
            args = [str(a) for a in e.args]
        try:
            text = str(e)
        except BaseException:  # noqa: B036
            text = '<unprintable %s>' % cls.__name__
        return {'c': c, 'a': args, 's': text}

    def exception_from(self, d):
        """Hook: rebuild the other side's exception (the sides differ in what they trust)."""
        raise NotImplementedError


MUTABLE = (list, dict, set, bytearray, collections.deque)


def apply_mutations(args, changes, dec):
    """A callee changed the caller's list (sorted it, appended): the caller's own object changes the same way."""
    for change in changes:
        if type(change) is not list or len(change) != 2 or type(change[0]) is not int or not 0 <= change[0] < len(args):
            raise WireError('a malformed change to an argument')
        original, value = args[change[0]], dec.decode(change[1])
        if type(original) is not type(value) or type(original) not in MUTABLE:
            continue
        if type(original) is dict:
            original.clear()
            original.update(value)
        elif type(original) in (set, collections.deque):
            original.clear()
            original.update(value) if type(original) is set else original.extend(value)
        else:
            original[:] = value


def _list(v):
    if v is None:
        return []
    if type(v) is not list:
        raise WireError('a malformed list')
    return v
