// Forgets to round: the mean and the fractions carry every digit.
export const summarize = (readings) => ({
  min: Math.min(...readings),
  max: Math.max(...readings),
  mean: readings.reduce((a, b) => a + b, 0) / readings.length,
  count: readings.length,
});

export const normalize = (readings) => {
  const min = Math.min(...readings);
  const span = Math.max(...readings) - min;
  return readings.map((r) => (r - min) / span);
};

export const alerts = (readings, limit, notify) => {
  const above = [];
  readings.forEach((r, index) => {
    if (r > limit) {
      above.push(r);
      notify(r, { index });
    }
  });
  return above;
};
