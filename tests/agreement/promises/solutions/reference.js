export const promisify = (fn) => (...args) =>
  new Promise((resolve, reject) => {
    fn(...args, (error, value) => (error ? reject(error) : resolve(value)));
  });

export const all = (promises) =>
  new Promise((resolve, reject) => {
    const values = new Array(promises.length);
    let left = promises.length;
    if (left === 0) resolve([]);
    promises.forEach((p, i) => {
      Promise.resolve(p).then((v) => {
        values[i] = v;
        left -= 1;
        if (left === 0) resolve(values);
      }, reject);
    });
  });

export const allSettled = (promises) =>
  all(promises.map((p) => Promise.resolve(p).then((value) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason }))));

export const race = (promises) => new Promise((resolve, reject) => promises.forEach((p) => Promise.resolve(p).then(resolve, reject)));

export const any = (promises) =>
  new Promise((resolve, reject) => {
    const errors = [];
    let left = promises.length;
    promises.forEach((p, i) => {
      Promise.resolve(p).then(resolve, (e) => {
        errors[i] = e;
        left -= 1;
        if (left === 0) reject(new AggregateError(errors, 'all rejected'));
      });
    });
  });
