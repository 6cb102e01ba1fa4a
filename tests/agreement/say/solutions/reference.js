const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = [[1e9, 'billion'], [1e6, 'million'], [1e3, 'thousand']];

const belowHundred = (n) => (n < 20 ? SMALL[n] : TENS[Math.floor(n / 10)] + (n % 10 ? `-${SMALL[n % 10]}` : ''));
const belowThousand = (n) => {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  return [h ? `${SMALL[h]} hundred` : '', rest || !h ? belowHundred(rest) : ''].filter(Boolean).join(' ');
};

export const say = (n) => {
  if (n < 0 || n > 999999999999) throw new RangeError('Number must be between 0 and 999,999,999,999.');
  if (n < 1000) return belowThousand(n);
  const parts = [];
  let rest = n;
  for (const [size, word] of SCALES) {
    const chunk = Math.floor(rest / size);
    if (chunk) parts.push(`${belowThousand(chunk)} ${word}`);
    rest %= size;
  }
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
};
