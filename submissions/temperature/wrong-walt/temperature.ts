export type Scale = 'C' | 'F' | 'K';

// Forgets the 32° offset and never rejects impossible temperatures.
export function convert(value: number, from: Scale, to: Scale): number {
  if (from === to) return value;
  if (from === 'C' && to === 'F') return (value * 9) / 5;
  if (from === 'F' && to === 'C') return (value * 5) / 9;
  if (from === 'C' && to === 'K') return value + 273.15;
  if (from === 'K' && to === 'C') return Math.round((value - 273.15) * 100) / 100;
  return value;
}
