export type Scale = 'C' | 'F' | 'K';

const toKelvin: Record<Scale, (v: number) => number> = {
  C: (v) => v + 273.15,
  F: (v) => ((v - 32) * 5) / 9 + 273.15,
  K: (v) => v,
};
const fromKelvin: Record<Scale, (k: number) => number> = {
  C: (k) => k - 273.15,
  F: (k) => ((k - 273.15) * 9) / 5 + 32,
  K: (k) => k,
};

export function convert(value: number, from: Scale, to: Scale): number {
  const kelvin = toKelvin[from](value);
  if (kelvin < -1e-9) throw new RangeError(`${value}°${from} is below absolute zero`);
  return Math.round(fromKelvin[to](kelvin) * 100) / 100;
}
