function fail(m) { throw new Error(m); }
function failLater(m) { return new Promise(function (_, reject) { reject(new Error(m)); }); }
function parse(s) {
  var out = {};
  s.split(';').forEach(function (p) { var kv = p.split('='); out[kv[0]] = kv[1]; });
  return out;
}
function firstDigits(s) { if (/(\d+)/.test(s)) return RegExp.$1; return null; }
module.exports = { fail: fail, failLater: failLater, parse: parse, firstDigits: firstDigits };
