const round = (x, digits) => Number(x.toFixed(digits));

export const summarize = (readings) => ({
  min: Math.min(...readings),
  max: Math.max(...readings),
  mean: round(readings.reduce((a, b) => a + b, 0) / readings.length, 2),
  count: readings.length,
});

export const normalize = (readings) => {
  const min = Math.min(...readings);
  const span = Math.max(...readings) - min;
  return readings.map((r) => round((r - min) / span, 3));
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
