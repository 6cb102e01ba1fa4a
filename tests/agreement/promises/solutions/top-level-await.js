const ready = await Promise.resolve(true);

export const promisify = (fn) => (...args) => new Promise((ok, ko) => fn(...args, (e, v) => (e ? ko(e) : ok(v))));
export const all = (ps) => (ready ? Promise.all(ps) : null);
export const allSettled = (ps) => Promise.allSettled(ps);
export const race = (ps) => Promise.race(ps);
export const any = (ps) => Promise.any(ps);
