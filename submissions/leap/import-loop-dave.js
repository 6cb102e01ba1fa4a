// Infinite loop at import time: the module never finishes loading.
let spins = 0;
while (true) {
  spins += 1;
}

export const isLeap = (year) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
