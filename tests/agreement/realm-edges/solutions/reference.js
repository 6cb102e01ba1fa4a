export const fail = (m) => { throw new Error(m); };
export const failLater = async (m) => { throw new Error(m); };
export const parse = (s) => Object.fromEntries(s.split(';').map((p) => p.split('=')));
export const firstDigits = (s) => s.match(/\d+/)[0];
