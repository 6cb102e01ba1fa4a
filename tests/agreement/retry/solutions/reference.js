export async function retry(op, attempts) {
  if (attempts < 1) throw new Error('no attempts');
  let last;
  for (let n = 1; n <= attempts; n++) {
    try {
      return await op(n);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

export function sleepThen(ms, cb) {
  setTimeout(() => cb(ms), ms);
}
