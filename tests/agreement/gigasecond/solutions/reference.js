export const gigasecond = (date) => new Date(date.getTime() + 1e12);
