export function promisify(fn) {
  return function (...args) {
    return new Promise((resolve, reject) => {
      fn(...args, (err, result) => {
        if (err) reject(err);
        else resolve(result);
      });
    });
  };
}

export async function all(promises) {
  const out = [];
  await new Promise((resolve, reject) => {
    if (promises.length === 0) resolve();
    for (const p of promises) {
      Promise.resolve(p).then((v) => {
        out.push(v);
        if (out.length === promises.length) resolve();
      }, reject);
    }
  });
  return out;
}

export async function allSettled(promises) {
  return all(promises.map((p) => Promise.resolve(p).then(
    (value) => ({ status: 'fulfilled', value, reason: undefined }),
    (reason) => ({ status: 'rejected', reason, value: undefined }),
  )));
}

export function race(promises) {
  return new Promise((resolve, reject) => {
    for (const p of promises) Promise.resolve(p).then(resolve, reject);
  });
}

export function any(promises) {
  return new Promise((resolve, reject) => {
    const errors = [];
    for (const p of promises) {
      Promise.resolve(p).then(resolve, (e) => {
        errors.push(e);
        if (errors.length === promises.length) reject(errors);
      });
    }
  });
}
