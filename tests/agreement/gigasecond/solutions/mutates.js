export function gigasecond(date) {
  date.setTime(date.getTime() + 1e12);
  return date;
}
