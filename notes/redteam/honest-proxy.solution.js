// An honest observable store: a Proxy whose only trap forwards the read and counts it.
const reads = { n: 0 };
exports.store = (init) => new Proxy({ ...init }, { get(t, k, r) { reads.n++; return Reflect.get(t, k, r); } });
exports.add = (a, b) => a + b;
exports.reads = () => reads.n;
