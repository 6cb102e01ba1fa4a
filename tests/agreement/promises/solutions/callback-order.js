const promisify = (fn) => (...args) =>
  new Promise((resolve, reject) => {
    fn(...args, (value, error) => {
      if (error) reject(error);
      else resolve(value);
    });
  });

const all = async (promises) => {
  const values = [];
  while (promises.length) values.push(await promises.shift());
  return values;
};

const allSettled = async (promises) => {
  Promise.allSettled(promises);
};

const race = (promises) => Promise.race(promises);
const any = (promises) => Promise.any(promises);

module.exports = { promisify, all, allSettled, race, any };
