export const gigasecond = (date) => new Date(date.valueOf() + 1e9);
