export const gigasecond = (date) => date.getTime() + 1e9 * 1000;
