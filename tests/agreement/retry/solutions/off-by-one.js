// One attempt too many, swallows the error, counts from zero; the callback never fires.
export const retry = async (op, attempts) => {
  for (let n = 0; n <= attempts; n++) {
    try {
      return await op(n);
    } catch {
      // try again
    }
  }
  return undefined;
};

export const sleepThen = () => {};
