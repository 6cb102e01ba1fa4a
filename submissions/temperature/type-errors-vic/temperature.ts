// Runs correctly, but does not type-check: the declared types are wrong.
export type Scale = 'C' | 'F' | 'K';

export function convert(value: number, from: Scale, to: Scale): string {
  var kelvin = from === 'C' ? value + 273.15 : from === 'F' ? ((value - 32) * 5) / 9 + 273.15 : value;
  if (kelvin < -1e-9) throw new RangeError('below absolute zero');
  let out: number = to === 'C' ? kelvin - 273.15 : to === 'F' ? ((kelvin - 273.15) * 9) / 5 + 32 : kelvin;
  const unused: number = 'x';
  return Math.round(out * 100) / 100;
}
