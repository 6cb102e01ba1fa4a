exports.retry = (op, attempts) => {
  if (!attempts) throw new Error('no attempts');
  return op(1).catch((e) => (attempts > 1 ? exports.retry((n) => op(n + 1), attempts - 1) : Promise.reject(e)));
};
exports.sleepThen = (ms, cb) => setTimeout(cb, ms, ms);
